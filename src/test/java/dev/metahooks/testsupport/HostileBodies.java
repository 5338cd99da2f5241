package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Requests an attacker (or a typo) sends: small objects that ask for huge answers, and bodies within the size
 * limit that are nothing but structure. Each is a real fixture with the one edit that makes it hostile.
 */
public final class HostileBodies {
  private static final String PADDING = "x".repeat(10 * 1024);

  private HostileBodies() {}

  /** A StatefulSet of about 1.6 kB asking for 100,000 Services of twenty port pairs each. */
  public static byte[] servicePerPodAmplification() {
    ObjectNode request =
        fixture("service-per-pod/sync/01-v1-first-sync-three-replicas.request.json");
    ObjectNode statefulSet = (ObjectNode) request.get("object");
    StringBuilder ports = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      ports.append(i == 0 ? "" : ",").append(8000 + i).append(':').append(9000 + i);
    }
    ((ObjectNode) statefulSet.path("metadata").path("annotations"))
        .put("service-per-pod-ports", ports.toString());
    ((ObjectNode) statefulSet.get("spec")).put("replicas", 100_000);
    statefulSet.remove("status");
    ((ObjectNode) statefulSet.get("metadata")).remove("managedFields");
    return bytes(request);
  }

  /** A CatSet of about 12 kB whose claim template carries 10 kB, with 100,000 replicas. */
  public static byte[] catsetAmplification() {
    ObjectNode request = fixture("catset/sync/01-first-sync.request.json");
    ObjectNode spec = (ObjectNode) request.path("parent").get("spec");
    spec.put("replicas", 100_000);
    ((ObjectNode) spec.path("volumeClaimTemplates").get(0).get("metadata"))
        .putObject("annotations")
        .put("padding", PADDING);
    return bytes(request);
  }

  /** An IndexedJob of about 12 kB whose Pod template carries 10 kB, 100,000 completions all at once. */
  public static byte[] indexedJobAmplification() {
    ObjectNode request = fixture("indexedjob/sync/01-first-sync.request.json");
    ObjectNode spec = (ObjectNode) request.path("parent").get("spec");
    spec.put("completions", 100_000).put("parallelism", 100_000);
    ((ObjectNode) spec.path("template").get("metadata"))
        .putObject("annotations")
        .put("padding", PADDING);
    return bytes(request);
  }

  /** A hello-world request with {@code count} empty arrays beside it: three bytes each. */
  public static byte[] emptyArrays(int count) {
    return around("[]", count);
  }

  /** A hello-world request with {@code count} arrays nested {@code depth} deep beside it. */
  public static byte[] nests(int count, int depth) {
    return around("[".repeat(depth) + "]".repeat(depth), count);
  }

  private static byte[] around(String element, int count) {
    byte[] one = element.getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream out = new ByteArrayOutputStream((one.length + 1) * count + 4096);
    String request =
        new String(
                Resources.bytes(
                    Resources.path("fixtures/hello-world/sync/01-first-sync.request.json")),
                StandardCharsets.UTF_8)
            .trim();
    out.writeBytes(request.substring(0, request.lastIndexOf('}')).getBytes(StandardCharsets.UTF_8));
    out.writeBytes(", \"padding\": [".getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.writeBytes(one);
    }
    out.writeBytes("]}".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  private static ObjectNode fixture(String path) {
    try {
      return (ObjectNode)
          JsonTrees.MAPPER.readTree(Resources.bytes(Resources.path("fixtures/" + path)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(ObjectNode request) {
    try {
      return JsonTrees.MAPPER.writeValueAsBytes(request);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
