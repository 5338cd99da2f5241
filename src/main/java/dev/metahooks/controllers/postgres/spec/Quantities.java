package dev.metahooks.controllers.postgres.spec;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes quantities, enough to compare storage sizes by value ({@code 1Gi} equals {@code 1024Mi}) and to
 * check the shape of resource values. Exponent forms ({@code 1e3}) are accepted as Kubernetes accepts them.
 */
public final class Quantities {
  private static final Pattern SHAPE =
      Pattern.compile(
          "([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][-+]?[0-9]{1,3})?");
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("n", new BigDecimal("1e-9")),
          Map.entry("u", new BigDecimal("1e-6")),
          Map.entry("m", new BigDecimal("1e-3")),
          Map.entry("k", new BigDecimal("1e3")),
          Map.entry("M", new BigDecimal("1e6")),
          Map.entry("G", new BigDecimal("1e9")),
          Map.entry("T", new BigDecimal("1e12")),
          Map.entry("P", new BigDecimal("1e15")),
          Map.entry("E", new BigDecimal("1e18")),
          Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
          Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
          Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
          Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
          Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
          Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

  private Quantities() {}

  public static boolean valid(String quantity) {
    return quantity != null && quantity.length() <= 32 && SHAPE.matcher(quantity).matches();
  }

  /** The value of a valid quantity; throws IllegalArgumentException on an invalid one. */
  public static BigDecimal bytes(String quantity) {
    Matcher m = quantity == null ? null : SHAPE.matcher(quantity);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("not a quantity: " + quantity);
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    if (suffix.startsWith("e") || suffix.startsWith("E")) {
      return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
    }
    return number.multiply(SUFFIXES.get(suffix));
  }

  /**
   * A valid quantity in the form the API server stores it in a resource list ({@code 10240Mi} → {@code 10Gi},
   * {@code 0.5} → {@code 500m}; {@link dev.metahooks.kube.Quantities#canonicalInResourceList}): children carry
   * it so, since a child that carries another form differs from the stored one on every sync.
   */
  public static String stored(String quantity) {
    return dev.metahooks.kube.Quantities.canonicalInResourceList(quantity);
  }

  /** Whether two quantities have the same value; two strings that are not quantities compare as text. */
  public static boolean same(String a, String b) {
    if (valid(a) && valid(b)) {
      return bytes(a).compareTo(bytes(b)) == 0;
    }
    return a == null ? b == null : a.equals(b);
  }
}
