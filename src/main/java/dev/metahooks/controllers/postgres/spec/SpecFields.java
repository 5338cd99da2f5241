package dev.metahooks.controllers.postgres.spec;

import dev.metahooks.kube.FieldReader;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The CRD's rules for one field, on top of {@link FieldReader}'s types: lengths, patterns, bounds, enums and
 * defaults. Each read returns the default when the field is absent, or when it is wrong (and says so).
 */
public final class SpecFields {
  /** The longest item of a string list (role and database names are PostgreSQL identifiers). */
  public static final int MAX_ITEM_LENGTH = 63;

  private SpecFields() {}

  /** An optional string of 1 to {@code maxLength} characters matching {@code pattern} (when not null). */
  public static String string(
      FieldReader r, String field, String fallback, Pattern pattern, int maxLength) {
    return r.optionalString(field)
        .flatMap(text -> checked(r, field, text, pattern, maxLength))
        .orElse(fallback);
  }

  /** A required string of 1 to {@code maxLength} characters matching {@code pattern}; empty when missing or wrong. */
  public static Optional<String> required(
      FieldReader r, String field, Pattern pattern, int maxLength) {
    if (!r.isSet(field)) {
      r.requiredText(field); // says "is required"
      return Optional.empty();
    }
    return r.optionalString(field).flatMap(text -> checked(r, field, text, pattern, maxLength));
  }

  private static Optional<String> checked(
      FieldReader r, String field, String text, Pattern pattern, int maxLength) {
    if (text.isEmpty() || text.length() > maxLength) {
      r.report(field, "must be 1 to " + maxLength + " characters");
      return Optional.empty();
    }
    if (pattern != null && !pattern.matcher(text).matches()) {
      r.report(field, "must match " + pattern.pattern());
      return Optional.empty();
    }
    return Optional.of(text);
  }

  public static String oneOf(FieldReader r, String field, String fallback, List<String> allowed) {
    return r.optionalOneOf(field, allowed).orElse(fallback);
  }

  public static int integer(FieldReader r, String field, int fallback, int min, int max) {
    return r.optionalInteger(field, min, max).map(Long::intValue).orElse(fallback);
  }

  /** A boolean; {@code whenUnreadable} is what a wrong value counts as (true where true is the safe side). */
  public static boolean bool(
      FieldReader r, String field, boolean fallback, boolean whenUnreadable) {
    return r.optionalBoolean(field).orElse(r.isSet(field) ? whenUnreadable : fallback);
  }

  /**
   * A list of distinct strings of 1 to {@value #MAX_ITEM_LENGTH} characters matching {@code pattern} (when not
   * null), at most {@code maxItems}; the items that break a rule are left out.
   */
  public static List<String> stringList(
      FieldReader r, String field, Pattern pattern, int maxItems) {
    List<String> given = r.optionalStringList(field);
    if (given.size() > maxItems) {
      r.report(field, "must have at most " + maxItems + " items");
    }
    Set<String> items = new LinkedHashSet<>();
    for (int i = 0; i < given.size(); i++) {
      String item = given.get(i);
      if (item.isEmpty()) {
        continue; // the reader said so
      }
      if (item.length() > MAX_ITEM_LENGTH) {
        r.problems()
            .add(r.path(field, i), "must be a string of 1 to " + MAX_ITEM_LENGTH + " characters");
      } else if (pattern != null && !pattern.matcher(item).matches()) {
        r.problems().add(r.path(field, i), "must match " + pattern.pattern());
      } else if (!items.add(item)) {
        r.problems().add(r.path(field, i), "\"" + item + "\" is listed twice");
      }
    }
    return List.copyOf(items);
  }
}
