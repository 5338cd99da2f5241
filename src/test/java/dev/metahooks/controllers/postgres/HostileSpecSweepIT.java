package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.TestCertificates;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every string a PostgresCluster editor writes in a spec that uses every feature, and every key of its free maps,
 * replaced in turn by hostile values (shell, SQL, psql, YAML, URI and selector syntax): each ends refused
 * ({@code SpecValid=False}, nothing rendered) or as literal data, a whole string of the children (an environment
 * value, a label, a field of its own), never spliced into a longer string, a command or a script, and never parsed
 * out of a JSON text the children carry (Spilo's configuration, the last-applied annotation) in another shape.
 */
class HostileSpecSweepIT {
  static final List<String> HOSTILE =
      List.of(
          "x'; DROP TABLE t; --",
          "$(touch /tmp/pwned)",
          "`id`",
          "a\nb: c",
          "../../other",
          "x\" --inject=1",
          "a,b=c",
          "\\! id",
          "{{ .Values }}",
          "other-ns/orders",
          "$(PGPASSWORD)");

  static final String SPEC =
      """
      postgresVersion: 17
      instances: 2
      image: ghcr.io/zalando/spilo-17:4.0-p3
      storage: {size: 10Gi, storageClassName: fast}
      postgresql:
        parameters: {work_mem: 8MB, log_min_duration_statement: 250ms}
      users:
      - {name: app}
      - {name: reporting, options: [CREATEDB], connect: [shop]}
      databases:
      - {name: shop, owner: app, extensions: [pg_trgm]}
      backup:
        s3:
          bucket: pg-backups
          prefix: shop/orders
          endpoint: https://minio.example:9000
          region: eu-west-1
          credentials: {secretName: s3-creds, accessKeyIdKey: id, secretAccessKeyKey: key}
        schedule: "0 1 * * *"
        logical: {schedule: "30 2 * * *", image: "registry.example/logical:1"}
        onDemand: [{name: before-upgrade}]
        finalBackup: true
        jobImage: "registry.example/kubectl:1"
        encryption: {libsodium: {secretName: walg-key, key: key}}
      tls: {secretName: orders-tls}
      pooler: {enabled: true}
      networkPolicy:
        enabled: true
        clients: [{podSelector: {matchLabels: {app: shop-web}}}]
      scheduling:
        database: {podLabels: {team: shop}, podAnnotations: {note: kept}, priorityClassName: high}
      """;

  /** Every name defined, as a marker: what the kubelet would substitute for any $(NAME). */
  private static final Map<String, String> EVERY_NAME_DEFINED =
      new TreeMap<>() {
        @Override
        public String get(Object name) {
          return "\u0001";
        }
      };

  private static ObjectNode tlsSecret;

  @BeforeAll
  static void certificates() {
    TestCertificates certs = TestCertificates.create();
    certs.ca("ca");
    certs.server(
        "server",
        "ca",
        List.of("orders-rw.shop.svc", "*.orders-hl.shop.svc", "orders-hl.shop.svc"),
        2);
    tlsSecret = TlsWorlds.tlsSecret(certs, keys -> {});
  }

  @Test
  void everyUserStringEndsRefusedOrAsLiteralData() throws IOException {
    ObjectNode base = (ObjectNode) new YAMLMapper().readTree(SPEC);
    JsonNode baseAnswer = render(base);
    assertThat(validity(baseAnswer))
        .as(CrossClusterAccessTest.condition(baseAnswer, "SpecValid").toString())
        .isEqualTo("True");
    List<String> paths = new ArrayList<>();
    strings(base, "", paths);
    int tried = 0;
    int refused = 0;
    List<String> splices = new ArrayList<>();
    for (String path : paths) {
      for (String value : HOSTILE) {
        ObjectNode spec = base.deepCopy();
        replace(spec, path, value);
        JsonNode answer = render(spec);
        tried++;
        if ("False".equals(validity(answer))) {
          refused++;
          assertThat(answer.path("children")).as(path + " = " + value).isEmpty();
          continue;
        }
        answer.path("children").forEach(child -> splices(child, "", value, path, splices));
      }
    }
    System.out.printf(
        "hostile spec sweep: %d fields, %d values tried, %d refused, the rest literal data%n",
        paths.size(), tried, refused);
    assertThat(splices)
        .as("hostile values spliced into children (%d tried, %d refused)", tried, refused)
        .isEmpty();
    assertThat(tried).isEqualTo(paths.size() * HOSTILE.size());
    assertThat(paths.size()).isGreaterThan(30);
  }

  /** The first sync of a cluster of {@code spec}, its Secrets given, then a sync once its pods run. */
  static JsonNode render(ObjectNode spec) {
    ObservedRequests world = new ObservedRequests("orders", spec);
    world.relatedSecrets.put(TlsWorlds.SECRET, tlsSecret.deepCopy());
    JsonNode first = world.sync();
    if (!"True".equals(validity(first))) {
      return first;
    }
    world.runAllReady();
    return world.sync();
  }

  static String validity(JsonNode answer) {
    return CrossClusterAccessTest.condition(answer, "SpecValid").path("status").asText();
  }

  /** JSON-pointer-like paths of every string leaf, and of every key of a map the user names freely. */
  static void strings(JsonNode node, String path, List<String> paths) {
    if (node.isTextual()) {
      paths.add(path);
    } else if (node.isObject()) {
      boolean freeMap =
          path.endsWith("/parameters")
              || path.endsWith("/podLabels")
              || path.endsWith("/podAnnotations")
              || path.endsWith("/matchLabels");
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (freeMap) {
          paths.add(path + "/" + field.getKey() + "#key");
        }
        strings(field.getValue(), path + "/" + field.getKey(), paths);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        strings(node.get(i), path + "/" + i, paths);
      }
    }
  }

  static void replace(ObjectNode spec, String path, String value) {
    boolean key = path.endsWith("#key");
    String pointer = key ? path.substring(0, path.length() - 4) : path;
    String parent = pointer.substring(0, pointer.lastIndexOf('/'));
    String last = pointer.substring(pointer.lastIndexOf('/') + 1);
    JsonNode container = spec.at(parent);
    if (container.isArray()) {
      ((com.fasterxml.jackson.databind.node.ArrayNode) container)
          .set(Integer.parseInt(last), JsonTrees.MAPPER.getNodeFactory().textNode(value));
    } else if (key) {
      Map<String, JsonNode> renamed = new TreeMap<>();
      container
          .fields()
          .forEachRemaining(
              e -> renamed.put(e.getKey().equals(last) ? value : e.getKey(), e.getValue()));
      ((ObjectNode) container).removeAll();
      renamed.forEach(((ObjectNode) container)::set);
    } else {
      ((ObjectNode) container).put(last, value);
    }
  }

  /**
   * Where {@code value} lies in {@code node} other than as a whole string outside commands and scripts; a string
   * that is JSON (Spilo's configuration, a last-applied annotation) is read and searched as well.
   */
  static void splices(JsonNode node, String at, String value, String field, List<String> found) {
    if (node.isTextual()) {
      String raw = node.asText();
      // An environment value reaches the process through the kubelet's $(NAME) expansion, every
      // name taken as
      // defined: a value it would change was not escaped.
      boolean environment = at.matches(".*/env/[0-9]+/value");
      String text = environment ? Kubelet.expand(raw, EVERY_NAME_DEFINED) : raw;
      if (environment && raw.contains(value) && !text.contains(value)) {
        found.add(
            field
                + " = "
                + JsonTrees.MAPPER.valueToTree(value)
                + " at "
                + at
                + ": expanded by the kubelet");
        return;
      }
      if (!text.contains(value)) {
        return;
      }
      boolean inCommand = at.contains("/command/") || at.contains("/args/");
      if (text.equals(value) && !inCommand) {
        return;
      }
      JsonNode parsed = json(text);
      if (parsed != null && !inCommand) {
        splices(parsed, at + "{json}", value, field, found);
        return;
      }
      found.add(
          field
              + " = "
              + JsonTrees.MAPPER.valueToTree(value)
              + " at "
              + at
              + ": "
              + JsonTrees.MAPPER.valueToTree(
                  text.length() > 200 ? text.substring(0, 200) + "…" : text));
    } else if (node.isObject()) {
      node.fields()
          .forEachRemaining(
              e -> {
                if (e.getKey().contains(value) && !e.getKey().equals(value)) {
                  found.add(
                      field
                          + " = "
                          + JsonTrees.MAPPER.valueToTree(value)
                          + " in a key at "
                          + at
                          + "/"
                          + e.getKey());
                }
                splices(e.getValue(), at + "/" + e.getKey(), value, field, found);
              });
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        splices(node.get(i), at + "/" + i, value, field, found);
      }
    }
  }

  private static JsonNode json(String text) {
    String trimmed = text.trim();
    if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) {
      return null;
    }
    try {
      return JsonTrees.MAPPER.readTree(trimmed);
    } catch (IOException e) {
      return null;
    }
  }
}
