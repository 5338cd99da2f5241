package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Scram;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster's Secrets hold, decided once per call: every observed Secret is kept as it was applied (a
 * password never changes behind anyone's back), and each wanted Secret that is not observed gets its password: a
 * standby's source's, an application user's Secret of the earlier name scheme's (clients using it keep working), or
 * a generated one; with its SCRAM verifier (from a new salt) where it has one, computed once.
 *
 * @param applied the observed Secrets as last applied, by name
 * @param passwords the password of each wanted Secret not observed, by name
 * @param verifiers the SCRAM-SHA-256 verifier of each of those that holds one, by name
 */
public record Credentials(
    Map<String, ObjectNode> applied, Map<String, String> passwords, Map<String, String> verifiers) {
  public static final int PASSWORD_LENGTH = 32;
  public static final int SALT_LENGTH = 16;

  /** A Secret the spec asks for; {@code salted}: it holds a SCRAM verifier. */
  public record Wanted(String name, boolean salted) {}

  /** The decisions for {@code wanted}, in the cluster {@code cluster} of {@code namespace}. */
  public static Credentials decide(
      String cluster,
      String namespace,
      ClusterSpec spec,
      ObservedCluster observed,
      List<Wanted> wanted,
      Sources sources) {
    Map<String, ObjectNode> applied = new LinkedHashMap<>();
    observed.children("v1", "Secret").forEach(s -> applied.put(Names.of(s), Preserved.child(s)));
    Map<String, String> passwords = new LinkedHashMap<>();
    Map<String, String> verifiers = new LinkedHashMap<>();
    for (Wanted secret : wanted) {
      if (applied.containsKey(secret.name())) {
        continue;
      }
      String password =
          given(cluster, spec, observed, secret.name())
              .orElseGet(
                  () ->
                      sources.secret(
                          namespace + "/" + secret.name() + "/password", PASSWORD_LENGTH));
      passwords.put(secret.name(), password);
      if (secret.salted()) {
        byte[] salt =
            sources
                .secret(namespace + "/" + secret.name() + "/salt", SALT_LENGTH)
                .getBytes(StandardCharsets.US_ASCII);
        verifiers.put(secret.name(), Scram.verifier(password, salt));
      }
    }
    return new Credentials(Map.copyOf(applied), Map.copyOf(passwords), Map.copyOf(verifiers));
  }

  /** The Secret {@code name} as applied, a copy of its own, if observed. */
  public Optional<ObjectNode> keptCopy(String name) {
    return Optional.ofNullable(applied.get(name)).map(ObjectNode::deepCopy);
  }

  /** The password of a Secret to be created. */
  public String password(String name) {
    return passwords.get(name);
  }

  /** The verifier of a Secret to be created with one. */
  public String verifier(String name) {
    return verifiers.get(name);
  }

  /**
   * The SCRAM verifier the Secret {@code name} holds once rendered: as applied, or the one decided for it here.
   */
  public Optional<String> verifierHeld(String name) {
    return applied.containsKey(name)
        ? SecretData.value(applied.get(name), SecretData.VERIFIER)
        : Optional.ofNullable(verifiers.get(name));
  }

  /** The password the Secret {@code name} holds once rendered: as applied, or the one decided for it here. */
  public Optional<String> passwordHeld(String name) {
    return applied.containsKey(name)
        ? SecretData.value(applied.get(name), SecretData.PASSWORD)
        : Optional.ofNullable(passwords.get(name));
  }

  /** An application user's Secret as day 1 first named it; kept when observed, never created. */
  public static String legacyUserSecret(String cluster, String user) {
    return cluster + "-app-" + user;
  }

  /** A password this cluster takes over rather than generates. */
  private static Optional<String> given(
      String cluster, ClusterSpec spec, ObservedCluster observed, String name) {
    if (name.equals(Names.superuserSecret(cluster))) {
      return StandbyCredentials.superuser(spec, observed);
    }
    if (name.equals(Names.replicationSecret(cluster))) {
      return StandbyCredentials.replication(spec, observed);
    }
    for (ClusterSpec.User user : spec.users()) {
      if (name.equals(Names.userSecret(cluster, user.name()))) {
        return observed
            .secret(legacyUserSecret(cluster, user.name()))
            .flatMap(legacy -> SecretData.value(legacy, "password"));
      }
    }
    return Optional.empty();
  }
}
