package io.zaris.test.apps;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A shopping-cart service as a Spring Boot application on Spring Data Redis writes it: each visitor gets a
 * {@value #COOKIE} cookie naming their cart, and the cart is a Redis hash of item to quantity with a sliding
 * 30-minute expiry. It uses Boot's Redis auto-configuration (Lettuce; {@code spring.data.redis.cluster.nodes}) and
 * nothing of Zaris's API, so pointing it at Zaris's RESP ports runs it unmodified.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class CartApplication {

    static final String COOKIE = "CART";
    static final Duration IDLE_EXPIRY = Duration.ofMinutes(30);

    /**
     * The endpoints (registered as a member class of the configuration); a failure is answered 500 with its kind, so
     * a caller can tell and try again.
     */
    @RestController
    static class CartController {

        private final StringRedisTemplate redis;

        CartController(StringRedisTemplate redis) {
            this.redis = redis;
        }

        /** Sets an item's quantity in the visitor's cart (HSET, EXPIRE), starting a cart on the first visit. */
        @PutMapping("/cart/items/{item}")
        String put(@CookieValue(name = COOKIE, required = false) String cart, @PathVariable String item,
                   @RequestParam int quantity, HttpServletResponse response) {
            String id = cart;
            if (id == null) {
                id = UUID.randomUUID().toString();
                Cookie cookie = new Cookie(COOKIE, id);
                cookie.setPath("/");
                cookie.setHttpOnly(true);
                response.addCookie(cookie);
            }
            redis.opsForHash().put(key(id), item, Integer.toString(quantity));
            redis.expire(key(id), IDLE_EXPIRY);
            return id;
        }

        /** The visitor's cart as {@code item=quantity} lines in item order (HGETALL); empty without a cart. */
        @GetMapping("/cart")
        String get(@CookieValue(name = COOKIE, required = false) String cart) {
            if (cart == null) {
                return "";
            }
            Map<Object, Object> items = new TreeMap<>(redis.opsForHash().entries(key(cart)));
            StringBuilder lines = new StringBuilder();
            items.forEach((item, quantity) -> lines.append(item).append('=').append(quantity).append('\n'));
            return lines.toString();
        }

        @ExceptionHandler(RuntimeException.class)
        ResponseEntity<String> failed(RuntimeException e) {
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(e.getClass().getSimpleName());
        }

        static String key(String cart) {
            return "cart:" + cart;
        }
    }
}
