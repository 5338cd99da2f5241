package dev.metahooks.controllers.postgres.base;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * The mark by which a Secret is given to a cluster: the label {@code use.postgrescluster.metahooks.dev/<cluster>:
 * "true"}. A spec can name any Secret of its namespace, but whoever may edit a PostgresCluster need not be allowed to
 * read that Secret; the label can only be set by someone who may change the Secret, so it is that person's consent.
 * The customize hook relates Secrets by this label alone, so an unmarked Secret never reaches the hooks, and the
 * pods and Jobs reference no Secret the hooks have not seen marked. One label per cluster: a Secret may be given to
 * several. The Secrets a cluster generates carry its own mark and no other.
 */
public final class SecretMarks {
  public static final String PREFIX = "use.postgrescluster.metahooks.dev/";
  public static final String GIVEN = "true";

  private SecretMarks() {}

  /** The label key that gives a Secret to {@code cluster}. */
  public static String label(String cluster) {
    return PREFIX + cluster;
  }

  /** Whether {@code secret} carries the mark of {@code cluster}. */
  public static boolean givenTo(JsonNode secret, String cluster) {
    return GIVEN.equals(secret.path("metadata").path("labels").path(label(cluster)).asText(null));
  }

  /** The label selector of the Secrets given to {@code cluster}, for the customize hook. */
  public static ObjectNode selector(String cluster) {
    ObjectNode selector = Json.object();
    selector.putObject("matchLabels").put(label(cluster), GIVEN);
    return selector;
  }

  /** Marks a Secret the cluster generates as its own. */
  public static ObjectNode markOwn(ObjectNode secret, String cluster) {
    secret.withObjectProperty("metadata").withObjectProperty("labels").put(label(cluster), GIVEN);
    return secret;
  }

  /** What a person who may change the Secret runs to give it to the cluster. */
  public static String howToGive(String secret, String namespace, String cluster) {
    return "kubectl label secret "
        + secret
        + " -n "
        + namespace
        + " "
        + label(cluster)
        + "="
        + GIVEN;
  }
}
