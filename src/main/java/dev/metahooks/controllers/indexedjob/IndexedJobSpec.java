package dev.metahooks.controllers.indexedjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.kube.FieldReader;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * {@code spec.completions} and {@code spec.parallelism} (each 1 when absent), read as the upstream Python 2
 * hook reads them: the CRD has no schema, so a value may be any JSON. A completions the hook cannot count
 * to is refused; a parallelism is compared the Python 2 way, where null allows nothing and a string, list
 * or object allows everything.
 */
record IndexedJobSpec(JsonNode completions, JsonNode parallelism) {
  private static final BigInteger MAX_RANGE = BigInteger.valueOf(Long.MAX_VALUE);

  static IndexedJobSpec read(ObjectNode job) {
    ObjectNode spec = requireSpec(job);
    return new IndexedJobSpec(orOne(spec.get("completions")), orOne(spec.get("parallelism")));
  }

  static ObjectNode requireSpec(ObjectNode job) {
    return FieldReader.requiredSpec(job).node();
  }

  private static JsonNode orOne(JsonNode value) {
    return value == null ? IntNode.valueOf(1) : value;
  }

  /** Python's {@code succeeded == completions}: numbers by value, booleans as 0 and 1, anything else false. */
  boolean completedBy(long succeeded) {
    BigDecimal value = numeric(completions);
    return value != null && value.compareTo(BigDecimal.valueOf(succeeded)) == 0;
  }

  /** How many indexes {@code xrange(completions)} yields. */
  long count() {
    String path = "parent.spec.completions";
    BigDecimal value = numeric(completions);
    if (value == null) {
      throw new InvalidRequestException(path, "must be an integer");
    }
    BigInteger whole;
    try {
      whole = value.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw new InvalidRequestException(path, "must be an integer");
    }
    if (whole.signum() <= 0) {
      return 0;
    }
    if (whole.compareTo(MAX_RANGE) > 0) {
      throw new InvalidRequestException(path, "is too large");
    }
    return whole.longValueExact();
  }

  /** Python 2's {@code active < parallelism}. */
  boolean allowsMore(long active) {
    if (parallelism.isNull()) {
      return false; // None is smaller than every number
    }
    if (parallelism.isNumber() && !parallelism.isIntegralNumber()) {
      return active < parallelism.doubleValue();
    }
    BigDecimal value = numeric(parallelism);
    if (value == null) {
      return true; // numbers are smaller than strings, lists and dicts
    }
    return BigDecimal.valueOf(active).compareTo(value) < 0;
  }

  /** The value of a JSON number or boolean as Python compares it; null for other types and non-finite floats. */
  private static BigDecimal numeric(JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    if (value.isIntegralNumber()) {
      return new BigDecimal(value.bigIntegerValue());
    }
    if (value.isNumber()) {
      double d = value.doubleValue();
      return Double.isFinite(d) ? new BigDecimal(d) : null;
    }
    return null;
  }
}
