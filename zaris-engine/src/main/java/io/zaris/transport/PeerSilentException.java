package io.zaris.transport;

/**
 * The connection was closed because the peer answered nothing for seconds, not even a liveness probe. Unlike a
 * connection the peer closed or reset, this says nothing about the peer being gone: it may be hung, or alive
 * behind a network that drops everything, and may have applied what it was sent. A replication link therefore
 * counts a replica that fell silent as one that did not confirm, never as a crashed one.
 */
public final class PeerSilentException extends ZarisTransportException {

    public PeerSilentException(String message) {
        super(message, true);
    }
}
