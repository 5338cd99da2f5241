package dev.metahooks.kube;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A regular expression a string field of a typed spec must match ({@code String} or {@code Optional<String>}):
 * read as "must match ^[a-z]+$", and the {@code pattern} of the field's generated OpenAPI schema. Like the API
 * server (kube-openapi, pkg/validation/validate/values.go, {@code Pattern}: Go's {@code regexp.MatchString}), a
 * match anywhere in the value counts: anchor the expression with {@code ^...$} to hold the whole value. Keep to
 * what Java and Go (RE2) read alike: no back-references, no look-arounds.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Pattern {
  /** The regular expression. */
  String value();
}
