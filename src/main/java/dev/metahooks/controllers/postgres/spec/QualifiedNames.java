package dev.metahooks.controllers.postgres.spec;

import java.util.regex.Pattern;

/**
 * Label keys and values, annotation keys, object names: the API server's rules (apimachinery
 * {@code validation.IsQualifiedName}, {@code IsValidLabelValue}, {@code IsDNS1123Subdomain}), so that a bad one is
 * a problem naming the spec field rather than a child the API server refuses.
 */
public final class QualifiedNames {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private QualifiedNames() {}

  /** Why {@code key} is not a qualified name ({@code [prefix/]name}, the name at most 63 characters), or null. */
  public static String keyProblem(String key) {
    int slash = key.indexOf('/');
    String prefix = slash < 0 ? null : key.substring(0, slash);
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (prefix != null && subdomainProblem(prefix) != null) {
      return "must have a DNS subdomain as its prefix (before the /)";
    }
    if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
      return "must be a qualified name: [prefix/]name, the name 1 to 63 letters, digits, '-', '_' or '.', "
          + "starting and ending with a letter or digit";
    }
    return null;
  }

  /** Why {@code value} is not a label value (empty, or up to 63 characters of a qualified name's kind), or null. */
  public static String labelValueProblem(String value) {
    return value.isEmpty() || value.length() <= 63 && NAME.matcher(value).matches()
        ? null
        : "must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
  }

  /** Why {@code name} is not a DNS-1123 subdomain (the names of most objects), or null. */
  public static String subdomainProblem(String name) {
    return !name.isEmpty() && name.length() <= 253 && SUBDOMAIN.matcher(name).matches()
        ? null
        : "must be a DNS subdomain: at most 253 lowercase letters, digits, '-' and '.'";
  }
}
