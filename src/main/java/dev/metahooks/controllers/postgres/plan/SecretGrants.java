package dev.metahooks.controllers.postgres.plan;

import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SecretReferences;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * Every Secret the spec makes a pod or Job read must have been given to this cluster ({@link SecretMarks}) and hold
 * the key read; otherwise the spec is refused, naming the Secret, the key and the label to add, and the children stay
 * as they are. A running cluster whose Secrets predate the mark keeps running unchanged until they are marked. A
 * clone's source Secrets are judged until the cluster is first created: afterwards the clone cannot change.
 */
public final class SecretGrants {
  private SecretGrants() {}

  public static List<FieldProblem> check(ClusterSpec spec, ObservedCluster observed) {
    List<FieldProblem> problems = new ArrayList<>();
    // Synced with a customize answer of the earlier release, which related no Secrets: an unchanged
    // spec that
    // release rendered is served as before until Metacontroller asks the customize hook again.
    if (!observed.secretsRelated()) {
      return problems;
    }
    boolean bootstrapped = observed.statefulSet().isPresent();
    for (SecretReferences.Reference reference : SecretReferences.of(spec)) {
      // A clone's source Secrets are read when the cluster is first created; afterwards the clone
      // cannot change.
      if (reference.bootstrapOnly() && bootstrapped) {
        continue;
      }
      observed
          .relatedSecret(reference.secret())
          .ifPresentOrElse(
              secret -> {
                List<String> missing =
                    reference.keys().stream()
                        .filter(
                            key ->
                                SecretData.value(secret, key)
                                    .filter(value -> !value.isEmpty())
                                    .isEmpty())
                        .toList();
                if (!missing.isEmpty()) {
                  problems.add(
                      new FieldProblem(
                          reference.field(),
                          "Secret " + reference.secret() + " has no " + keys(missing)));
                }
              },
              () ->
                  problems.add(
                      new FieldProblem(
                          reference.field(),
                          notGiven(reference.secret(), reference.keys(), observed))));
    }
    return problems;
  }

  private static String keys(List<String> keys) {
    return (keys.size() == 1 ? "key " : "keys ") + String.join(", ", keys);
  }

  /** Why a Secret the spec names is not used, and what gives it. */
  public static String notGiven(String secret, List<String> keys, ObservedCluster observed) {
    return "Secret "
        + secret
        + " ("
        + keys(keys)
        + ") is missing or not given to this cluster: it is used only once "
        + "someone who may change it labels it "
        + SecretMarks.label(observed.name())
        + "="
        + SecretMarks.GIVEN
        + " ("
        + SecretMarks.howToGive(secret, observed.namespace(), observed.name())
        + ")";
  }
}
