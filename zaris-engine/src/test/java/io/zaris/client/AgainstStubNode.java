package io.zaris.client;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A unit test class whose every test gets a fresh {@link StubNodeClient}: a client on one stub node. */
abstract class AgainstStubNode {

    StubNodeClient stub;
    StubNode node;
    ZarisClient client;

    @BeforeEach
    void connect() throws Exception {
        stub = StubNodeClient.start();
        node = stub.node;
        client = stub.client;
    }

    @AfterEach
    void close() throws Exception {
        stub.close();
    }
}
