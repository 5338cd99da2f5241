package dev.metahooks.kube;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The bounds of an integer field of a typed spec ({@code int}, {@code long}, {@code Optional<Integer>},
 * {@code Optional<Long>}): read as {@link FieldReader#optionalInteger(String, long, long)} reads them ("must be
 * between 0 and 16"), and the {@code minimum} and {@code maximum} of the field's generated OpenAPI schema.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Range {
  /** The smallest value allowed. */
  long min();

  /** The largest value allowed. */
  long max();
}
