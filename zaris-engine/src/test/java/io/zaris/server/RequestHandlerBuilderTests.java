package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.time.TimeSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The request handler's builder refuses a bad or missing part before a handler exists. */
@Tag("unit")
class RequestHandlerBuilderTests {

    @Test
    void buildingWithoutAnyPartNamesTheFirstSetterMissing() {
        assertThatThrownBy(() -> RequestHandler.builder("a").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the request handler of node a needs time(...)");
    }

    @Test
    void buildingWithSomePartsNamesTheNextSetterMissing() {
        RequestHandler.Builder builder = RequestHandler.builder("a").time(TimeSource.system());

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the request handler of node a needs store(...)");
    }

    @Test
    void aNullPartIsRefusedByName() {
        assertThatThrownBy(() -> RequestHandler.builder("a").admin(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("admin must not be null");
        assertThatThrownBy(() -> RequestHandler.builder(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nodeId must not be null");
    }
}
