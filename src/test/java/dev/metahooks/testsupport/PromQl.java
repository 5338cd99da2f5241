package dev.metahooks.testsupport;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Metric names: those a Prometheus text exposition offers, and those a PromQL expression reads. */
public final class PromQl {
  private static final Pattern SAMPLE = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> KEYWORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "and",
          "or",
          "unless",
          "offset",
          "inf",
          "nan");

  private PromQl() {}

  /** Every metric name of an exposition; a histogram's series also under its base name. */
  public static Set<String> exposed(String exposition) {
    Set<String> names = new TreeSet<>();
    Matcher sample = SAMPLE.matcher(exposition);
    while (sample.find()) {
      names.add(sample.group(1));
      names.add(sample.group(1).replaceAll("_(bucket|sum|count)$", ""));
    }
    return names;
  }

  /**
   * The metric names an expression selects: what is left of its identifiers once strings, label matchers, ranges,
   * label lists ({@code by (...)}, {@code on (...)}), functions, keywords and numbers are taken away.
   */
  public static Set<String> metricsIn(String expression) {
    String text =
        expression
            .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> names = new TreeSet<>();
    Matcher identifier = IDENTIFIER.matcher(text);
    while (identifier.find()) {
      String name = identifier.group();
      boolean call = text.substring(identifier.end()).stripLeading().startsWith("(");
      boolean number =
          identifier.start() > 0 && Character.isDigit(text.charAt(identifier.start() - 1));
      if (!call && !number && !KEYWORDS.contains(name.toLowerCase())) {
        names.add(name);
      }
    }
    return names;
  }
}
