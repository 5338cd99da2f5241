package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 1Gi}, {@code 2}) in the form the API server stores them.
 *
 * <p>The API server parses every quantity of a built-in object and writes it back in canonical form, so
 * {@code cpu: "0.5"} is stored as {@code 500m}, {@code "1024Mi"} as {@code 1Gi}, {@code "1000m"} as {@code "1"} and
 * a JSON number as a string. A child that carries another form than the stored one differs from what
 * Metacontroller observes on every sync: emit {@link #canonical} (or {@link #canonicalInResourceList} for
 * {@code requests}, {@code limits} and other resource lists) and it settles.
 *
 * <p>The algorithm is Kubernetes' own, read from {@code staging/src/k8s.io/apimachinery/pkg/api/resource}
 * (v1.36.3): {@code quantity.go} {@code ParseQuantity} (lines 278-392) remembers whether the suffix was binary
 * ({@code Ki}…{@code Ei}), decimal ({@code n}…{@code E}) or a decimal exponent ({@code e3}) and keeps the text as
 * written when it is already canonical; {@code CanonicalizeBytes} (lines 425-462) writes the largest suffix of the
 * same kind that loses no precision, falling back to decimal for binary values below 1024 or with a fraction.
 */
public final class Quantities {
  /** How a quantity is written (quantity.go, {@code Format}). */
  enum Format {
    DECIMAL_EXPONENT,
    BINARY_SI,
    DECIMAL_SI
  }

  /**
   * A parsed quantity: its exact value, its format, and the text kept as written when ParseQuantity found it
   * canonical already (the {@code s} field of Kubernetes' Quantity; null when the canonical form is computed).
   */
  record Parsed(BigDecimal value, Format format, String kept) {}

  /** The parts parseQuantityString finds: sign, the number as written, its integer and fraction digits, the suffix. */
  private record Parts(boolean positive, String value, String num, String denom, String suffix) {}

  private static final String SUFFIX_CHARACTERS = "eEinumkKMGTP";

  /** maxInt64Factors (math.go:28): 18 decimal digits always fit an int64. */
  private static final int MAX_INT64_FACTORS = 18;

  private static final int NANO = -9;
  private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigInteger TEN = BigInteger.TEN;
  private static final BigInteger B1024 = BigInteger.valueOf(1024);
  private static final Map<String, Integer> DECIMAL_SUFFIXES =
      Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
  private static final Map<String, Integer> BINARY_SUFFIXES =
      Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);

  private Quantities() {}

  /**
   * The form the API server stores a quantity in, e.g. {@code "0.5"} → {@code "500m"}, {@code "1024Mi"} →
   * {@code "1Gi"}, {@code "1000m"} → {@code "1"}.
   *
   * @throws IllegalArgumentException when the text is not a quantity (the API server refuses it)
   */
  public static String canonical(String quantity) {
    return text(parse(quantity));
  }

  /**
   * The form the API server stores a value of a resource list in ({@code resources.requests} and {@code limits},
   * a claim's {@code requests}, a quota's {@code hard}, …): rounded up to a thousandth first, as Kubernetes'
   * {@code pkg/apis/core/v1/defaults.go} {@code SetDefaults_ResourceList} (lines 39-48) does, then canonical
   * ({@code "1n"} → {@code "1m"}).
   *
   * @throws IllegalArgumentException when the text is not a quantity
   */
  public static String canonicalInResourceList(String quantity) {
    return text(roundUpToMilli(parse(quantity)));
  }

  /**
   * A copy of a pod template ({@code metadata} and {@code spec}, as in a workload's {@code spec.template}) with each
   * of its quantities in the form the API server stores: the resources of every container (init and ephemeral
   * too) and of the pod, its overhead, {@code emptyDir} size limits and ephemeral volumes' claim resources. For a
   * controller that copies a user's template into a child it updates: {@code cpu: "0.5"} would otherwise differ
   * from the stored {@code 500m} on every sync. A value that is no quantity is left for the API server to refuse.
   */
  public static ObjectNode inPodTemplate(ObjectNode template) {
    ObjectNode copy = template.deepCopy();
    if (!(copy.get("spec") instanceof ObjectNode spec)) {
      return copy;
    }
    for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
      for (JsonNode container : spec.path(list)) {
        resourceLists(container.get("resources"), "requests", "limits");
      }
    }
    resourceLists(spec.get("resources"), "requests", "limits");
    resourceLists(spec, "overhead");
    for (JsonNode volume : spec.path("volumes")) {
      if (volume.get("emptyDir") instanceof ObjectNode emptyDir
          && emptyDir.hasNonNull("sizeLimit")) {
        emptyDir.set("sizeLimit", stored(emptyDir.get("sizeLimit"), false));
      }
      resourceLists(
          volume.path("ephemeral").path("volumeClaimTemplate").path("spec").get("resources"),
          "requests",
          "limits");
    }
    return copy;
  }

  /** The values of these resource lists of {@code owner} in stored form. */
  private static void resourceLists(JsonNode owner, String... fields) {
    if (!(owner instanceof ObjectNode object)) {
      return;
    }
    for (String field : fields) {
      if (object.get(field) instanceof ObjectNode list) {
        for (Map.Entry<String, JsonNode> entry : list.properties()) {
          entry.setValue(stored(entry.getValue(), true));
        }
      }
    }
  }

  private static JsonNode stored(JsonNode value, boolean inResourceList) {
    String text =
        value.isTextual()
            ? value.asText()
            : value.isNumber() ? value.decimalValue().stripTrailingZeros().toPlainString() : null;
    if (text == null || !valid(text)) {
      return value;
    }
    return TextNode.valueOf(inResourceList ? canonicalInResourceList(text) : canonical(text));
  }

  /** Whether the text parses as a Kubernetes quantity. */
  public static boolean valid(String quantity) {
    try {
      parse(quantity);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The value of a quantity (capped and rounded as Kubernetes does: to 2^63-1 for binary, up to 10^-9). */
  public static BigDecimal value(String quantity) {
    return parse(quantity).value();
  }

  // ---- ParseQuantity (quantity.go:278-392)

  static Parsed parse(String text) {
    if (text == null || text.isEmpty()) {
      throw formatWrong(text);
    }
    if (text.equals("0")) {
      return new Parsed(BigDecimal.ZERO, Format.DECIMAL_SI, text);
    }
    Parts parts = split(text);
    String suffix = parts.suffix();
    int base;
    int exponent;
    Format format;
    if (DECIMAL_SUFFIXES.containsKey(suffix)) {
      base = 10;
      exponent = DECIMAL_SUFFIXES.get(suffix);
      format = Format.DECIMAL_SI;
    } else if (BINARY_SUFFIXES.containsKey(suffix)) {
      base = 2;
      exponent = BINARY_SUFFIXES.get(suffix);
      format = Format.BINARY_SI;
    } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      // suffix.go interpret: strconv.ParseInt, then int32
      try {
        exponent = (int) Long.parseLong(suffix.substring(1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("unable to parse quantity's suffix: " + text);
      }
      base = 10;
      format = Format.DECIMAL_EXPONENT;
    } else {
      throw new IllegalArgumentException("unable to parse quantity's suffix: " + text);
    }

    String num = parts.num();
    String denom = parts.denom();
    int precision;
    int scale;
    long mantissa = 1;
    if (format == Format.BINARY_SI) {
      scale = 0;
      if (exponent >= 0 && denom.isEmpty()) {
        mantissa = 1L << exponent;
        precision = 15 - num.length() - (int) ((float) exponent * 3 / 10) - 1;
      } else {
        precision = -1;
      }
    } else {
      scale = exponent;
      precision = MAX_INT64_FACTORS - (num.length() + denom.length());
    }
    if (precision >= 0) {
      scale -= denom.length();
      if (scale >= NANO) {
        String shifted = num + denom;
        long digits;
        try {
          digits = Long.parseLong(shifted);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("unable to parse numeric part of quantity: " + text);
        }
        Long product = multiply(digits, mantissa);
        if (product != null) {
          long result = parts.positive() ? product : -product;
          boolean canonical =
              format == Format.BINARY_SI
                  ? exponent % 10 == 0 && (digits & 0x07) != 0
                  : scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
          return new Parsed(
              new BigDecimal(BigInteger.valueOf(result), -scale), format, canonical ? text : null);
        }
      }
    }

    BigDecimal amount;
    try {
      amount = new BigDecimal(parts.value());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("unable to parse numeric part of quantity: " + text);
    }
    amount =
        base == 10
            ? amount.scaleByPowerOfTen(exponent)
            : amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exponent)));
    int sign = amount.signum();
    amount = amount.abs();
    // Some of a resource is at least the smallest amount there is: round up to 10^-9.
    if (sign != 0) {
      amount = amount.setScale(-NANO, RoundingMode.UP);
    }
    if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
      amount = MAX_ALLOWED;
    }
    if (format == Format.BINARY_SI && amount.compareTo(BigDecimal.ONE) < 0 && amount.signum() > 0) {
      format = Format.DECIMAL_SI;
    }
    return new Parsed(sign < 0 ? amount.negate() : amount, format, null);
  }

  /** parseQuantityString (quantity.go:161-275): a permissive scan, checked by the suffix lookup after it. */
  private static Parts split(String str) {
    boolean positive = true;
    int pos = 0;
    int end = str.length();
    if (str.charAt(0) == '-') {
      positive = false;
      pos++;
    } else if (str.charAt(0) == '+') {
      pos++;
    }
    while (true) {
      if (pos >= end) {
        return new Parts(positive, "0", "0", "", "");
      }
      if (str.charAt(pos) != '0') {
        break;
      }
      pos++;
    }
    int start = pos;
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    if (pos >= end) {
      return new Parts(positive, str, str.substring(start), "", "");
    }
    String num = start == pos ? "0" : str.substring(start, pos);
    String denom = "";
    if (str.charAt(pos) == '.') {
      pos++;
      int denomStart = pos;
      while (pos < end && isDigit(str.charAt(pos))) {
        pos++;
      }
      if (pos >= end) {
        return new Parts(positive, str, num, str.substring(denomStart), "");
      }
      denom = str.substring(denomStart, pos);
    }
    String value = str.substring(0, pos);
    int suffixStart = pos;
    while (pos < end && SUFFIX_CHARACTERS.indexOf(str.charAt(pos)) >= 0) {
      pos++;
    }
    if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
      pos++;
    }
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    if (pos < end) {
      throw formatWrong(str);
    }
    return new Parts(positive, value, num, denom, str.substring(suffixStart));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** int64Multiply: the product, or null when it overflows. */
  private static Long multiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static IllegalArgumentException formatWrong(String text) {
    return new IllegalArgumentException(
        "quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \""
            + text
            + "\"");
  }

  // ---- RoundUp (quantity.go:582-597), as SetDefaults_ResourceList calls it with the milli scale

  static Parsed roundUpToMilli(Parsed parsed) {
    if (parsed.value().scale() <= 3) {
      return parsed;
    }
    return new Parsed(parsed.value().setScale(3, RoundingMode.UP), parsed.format(), null);
  }

  // ---- String, MarshalJSON and CanonicalizeBytes (quantity.go:425-462, 680-718;
  // amount.go:257-340; suffix.go)

  /** What MarshalJSON writes: the text kept at parsing, else the canonical form. */
  static String text(Parsed parsed) {
    return parsed.kept() != null ? parsed.kept() : format(parsed.value(), parsed.format());
  }

  /** CanonicalizeBytes: the largest suffix of the format that loses no precision. */
  static String format(BigDecimal value, Format format) {
    if (value.signum() == 0) {
      return "0";
    }
    Format chosen = format;
    BigDecimal rounded = value;
    if (format == Format.BINARY_SI) {
      if (value.compareTo(BigDecimal.valueOf(-1024)) > 0
          && value.compareTo(BigDecimal.valueOf(1024)) < 0) {
        chosen = Format.DECIMAL_SI;
      } else {
        rounded = value.setScale(0, RoundingMode.UP);
        if (rounded.compareTo(value) != 0) {
          chosen = Format.DECIMAL_SI;
        }
      }
    }
    if (chosen == Format.BINARY_SI) {
      BigInteger amount = rounded.toBigIntegerExact();
      int times = 0;
      while (amount.mod(B1024).signum() == 0) {
        amount = amount.divide(B1024);
        times++;
      }
      return amount + binarySuffix(times * 10);
    }
    BigInteger amount = value.unscaledValue();
    int exponent = -value.scale();
    while (amount.mod(TEN).signum() == 0) {
      amount = amount.divide(TEN);
      exponent++;
    }
    while (exponent % 3 != 0) {
      amount = amount.multiply(TEN);
      exponent--;
    }
    return amount
        + (chosen == Format.DECIMAL_EXPONENT ? exponentSuffix(exponent) : decimalSuffix(exponent));
  }

  /** A decimal SI exponent without a suffix (above E or below n) is written without one, as suffix.go does. */
  private static String decimalSuffix(int exponent) {
    return DECIMAL_SUFFIXES.entrySet().stream()
        .filter(e -> e.getValue() == exponent)
        .map(Map.Entry::getKey)
        .findFirst()
        .orElse("");
  }

  private static String binarySuffix(int exponent) {
    return BINARY_SUFFIXES.entrySet().stream()
        .filter(e -> e.getValue() == exponent)
        .map(Map.Entry::getKey)
        .findFirst()
        .orElse("");
  }

  private static String exponentSuffix(int exponent) {
    return exponent == 0 ? "" : "e" + exponent;
  }
}
