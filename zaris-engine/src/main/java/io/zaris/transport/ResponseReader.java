package io.zaris.transport;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;
import io.zaris.protocol.MalformedRequestException;

/** Turns a response (status + body) into the API's value, or throws the exception the caller should see. */
@FunctionalInterface
public interface ResponseReader<T> {

    T read(KvStatus status, ByteBuf body) throws MalformedRequestException;
}
