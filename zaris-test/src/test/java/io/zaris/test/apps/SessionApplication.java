package io.zaris.test.apps;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.session.data.redis.config.annotation.web.http.EnableRedisHttpSession;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web application whose HTTP sessions Spring Session keeps in Redis with its plain repository
 * ({@code RedisSessionRepository} via {@link EnableRedisHttpSession}: a session is a hash of its attributes with an
 * expiry), over Boot's Redis auto-configuration (Lettuce; {@code spring.data.redis.cluster.nodes}). Nothing of Zaris's
 * API: pointed at Zaris's RESP ports it runs unmodified. A login changes the session id, as a login must against
 * session fixation, which makes Spring Session rename the session's key.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableRedisHttpSession
class SessionApplication {

    /** The endpoints; a failure is answered 500 with its kind, so a caller can tell and try again. */
    @RestController
    static class SessionController {

        /** Counts the visitor's visits in their session, starting one on the first visit; answers the count. */
        @PostMapping("/visit")
        String visit(HttpSession session) {
            Integer visits = (Integer) session.getAttribute("visits");
            int next = visits == null ? 1 : visits + 1;
            session.setAttribute("visits", next);
            return Integer.toString(next);
        }

        /** Logs the visitor in: a new session id for the same session, which then names its user. */
        @PostMapping("/login")
        String login(HttpServletRequest request, @RequestParam String user) {
            request.getSession();
            String id = request.changeSessionId();
            request.getSession().setAttribute("user", user);
            return id;
        }

        /** {@code user visits} of the visitor's session; {@code anonymous 0} without one. */
        @GetMapping("/me")
        String me(HttpServletRequest request) {
            HttpSession session = request.getSession(false);
            if (session == null) {
                return "anonymous 0";
            }
            Object user = session.getAttribute("user");
            Object visits = session.getAttribute("visits");
            return (user == null ? "anonymous" : user) + " " + (visits == null ? 0 : visits);
        }

        @ExceptionHandler(RuntimeException.class)
        ResponseEntity<String> failed(RuntimeException e) {
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(e.getClass().getSimpleName());
        }
    }
}
