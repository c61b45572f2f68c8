package io.zaris.sample;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Products under {@code /products/{id}}, answered through the cached {@link ProductCatalog}.
 *
 * <pre>
 * curl localhost:8080/products/42          → slow the first time (about 0.5 s), instant afterwards
 * curl localhost:8080/products/lookups     → {"lookups":1}: the slow path ran once
 * curl -X DELETE localhost:8080/products/42 → evicts the cached answer
 * </pre>
 */
@RestController
@RequestMapping("/products")
class ProductController {

    private final ProductCatalog catalog;

    ProductController(ProductCatalog catalog) {
        this.catalog = catalog;
    }

    @GetMapping("/lookups")
    Lookups lookups() {
        return new Lookups(catalog.lookups());
    }

    @GetMapping("/{id}")
    Product product(@PathVariable("id") String id) {
        return catalog.find(id);
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> forget(@PathVariable("id") String id) {
        catalog.forget(id);
        return ResponseEntity.noContent().build();
    }

    /** How many slow lookups this instance has made. */
    record Lookups(long lookups) {
    }
}
