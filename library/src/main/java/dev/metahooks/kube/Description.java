package dev.metahooks.kube;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a field of a typed spec or status means, for its CRD: the {@code description} of the field's OpenAPI
 * schema that {@link TypedParent#openApiV3Schema()} generates (what {@code kubectl explain} shows).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Description {
  /** The description, one sentence or a few. */
  String value();
}
