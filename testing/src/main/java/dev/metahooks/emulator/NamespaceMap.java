package dev.metahooks.emulator;

import java.security.SecureRandom;

/**
 * The namespaces of one emulated cluster on a shared real API server: each namespace a scenario names ({@code default},
 * {@code team-a}) is a namespace of its own there, the name with a prefix that no other cluster has
 * ({@code mh4k2q9-default}). A scenario written for the in-memory store then runs unchanged, every test isolated from
 * the others and from the server's own namespaces; objects come back under the names the scenario gave.
 */
final class NamespaceMap {
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String prefix;

  NamespaceMap(String prefix) {
    if (!prefix.matches("[a-z0-9]([-a-z0-9]*-)?")) {
      throw new IllegalArgumentException(
          "a namespace prefix is lower-case letters, digits and dashes: " + prefix);
    }
    this.prefix = prefix;
  }

  /** A prefix of {@code mh}, five random characters and a dash. */
  static NamespaceMap random() {
    StringBuilder prefix = new StringBuilder("mh");
    for (int i = 0; i < 5; i++) {
      prefix.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return new NamespaceMap(prefix.append('-').toString());
  }

  String prefix() {
    return prefix;
  }

  /** The server's name for a namespace of the scenario ({@code ""} stays {@code ""}: cluster-scoped). */
  String toServer(String namespace) {
    return namespace.isEmpty() ? "" : prefix + namespace;
  }

  /** The scenario's name for a namespace of the server, or null when it is not one of this cluster's. */
  String toScenario(String serverNamespace) {
    return serverNamespace.startsWith(prefix) && serverNamespace.length() > prefix.length()
        ? serverNamespace.substring(prefix.length())
        : null;
  }
}
