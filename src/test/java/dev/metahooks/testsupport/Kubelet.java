package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the kubelet and the container runtime do to a rendered container before its process starts: the
 * environment built from {@code envFrom} and {@code env}, {@code $(VAR)} expansion, and command and args merged
 * with the image's ENTRYPOINT and CMD. Tests run rendered scripts through it, so a script is checked under the
 * rules Kubernetes applies rather than as the raw string in the manifest.
 *
 * <p>Modelled from kubernetes/kubernetes ({@code third_party/forked/golang/expansion/expand.go} at commit
 * fde22c3f9aac, {@code pkg/kubelet/kubelet_pods.go} at 001a80e975bb) and containerd/containerd
 * {@code internal/cri/opts/spec_opts.go}; each rule names its source below. envFrom keys are taken as they are,
 * prefixed: this kubelet no longer skips keys that are not C identifiers, as older ones did (with an
 * InvalidEnvironmentVariableNames event).
 *
 * <p>Not modelled: service link variables are only what {@link Pod#services} declares (the kubelet computes them
 * from the Services of the namespace); {@code resourceFieldRef} and {@code fileKeyRef} are refused; the image's
 * own ENV is not added (pass PATH and the like to {@link Container#environmentWith}); namespaces of the objects
 * are not compared; the kubelet hands the runtime its variables in Go map order, so the order of
 * {@link Container#environment()} (envFrom first, then env, a redefined name keeping its first place) is only a
 * reading aid.
 */
public final class Kubelet {
  private Kubelet() {}

  /** A pod, from its PodSpec (for a Job: {@code job.at("/spec/template/spec")}). */
  public static Pod pod(JsonNode podSpec) {
    if (!podSpec.path("containers").isArray()) {
      throw new IllegalArgumentException("not a PodSpec (no containers array): " + podSpec);
    }
    return new Pod(podSpec);
  }

  /**
   * {@code $(NAME)} expansion as the kubelet does it: {@code $$} becomes {@code $}, {@code $(NAME)} becomes the
   * value of a defined NAME and stays as it is otherwise, an unterminated {@code $(} and a {@code $} before any
   * other character (or at the end) stay as they are. Everything between {@code $(} and the first {@code )} is
   * the name, unchecked. Source: third_party/forked/golang/expansion/expand.go, {@code Expand} (line 39) and
   * {@code tryReadVariableName} (line 82).
   */
  public static String expand(String text, Map<String, String> defined) {
    return expand(text, defined::get);
  }

  /** {@code lookup} answers null for an undefined name, which then stays literal. */
  private static String expand(String text, Function<String, String> lookup) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      // A '$' as the last character is copied like any other (expand.go line 43: cursor+1 <
      // len(input)).
      if (c != '$' || i + 1 == text.length()) {
        out.append(c);
        i++;
        continue;
      }
      char next = text.charAt(i + 1);
      if (next == '$') { // escaped operator (expand.go line 85)
        out.append('$');
        i += 2;
      } else if (next == '(') {
        int close = text.indexOf(')', i + 2);
        if (close < 0) { // incomplete reference: keep "$(" and read on after it (expand.go line 96)
          out.append("$(");
          i += 2;
        } else {
          String name = text.substring(i + 2, close);
          String value = lookup.apply(name);
          // MappingFuncFor returns the reference re-wrapped for an undefined name (expand.go line
          // 32).
          out.append(value != null ? value : "$(" + name + ")");
          i = close + 1;
        }
      } else { // any other character after '$' is kept with it (expand.go line 98)
        out.append('$').append(next);
        i += 2;
      }
    }
    return out.toString();
  }

  /** An image's ENTRYPOINT and CMD, as its config declares them. */
  private record Image(List<String> entrypoint, List<String> cmd) {}

  /** The pod and what the kubelet reads besides it: Secrets, ConfigMaps, the pod's fields, images. */
  public static final class Pod {
    private final JsonNode spec;
    private final Map<String, JsonNode> objects = new HashMap<>();
    private final Map<String, String> fields = new HashMap<>();
    private Map<String, String> labels;
    private Map<String, String> annotations;
    private final Map<String, String> services = new LinkedHashMap<>();
    private final Map<String, Image> images = new HashMap<>();

    private Pod(JsonNode spec) {
      this.spec = spec;
    }

    /**
     * The Secrets and ConfigMaps that secretKeyRef, configMapKeyRef and envFrom read, as the API server returns
     * them. A Secret read back has only {@code data} (base64); {@code stringData} is write-only and merged into
     * {@code data} by the API server, its keys winning. Both are accepted here so that a rendered Secret can be
     * passed as it is.
     */
    public Pod objects(List<? extends JsonNode> secretsAndConfigMaps) {
      for (JsonNode object : secretsAndConfigMaps) {
        String kind = object.path("kind").asText();
        if (!kind.equals("Secret") && !kind.equals("ConfigMap")) {
          throw new IllegalArgumentException("neither a Secret nor a ConfigMap: " + object);
        }
        objects.put(kind + "/" + object.at("/metadata/name").asText(), object);
      }
      return this;
    }

    /**
     * A value for a fieldRef: metadata.name, metadata.namespace, metadata.uid, spec.nodeName,
     * spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP, status.podIPs and the other paths
     * pkg/apis/core/pods/helpers.go {@code ConvertDownwardAPIFieldLabel} accepts. spec.* paths fall back to the
     * pod spec's own value; any other path the container references without a value here fails the test.
     * Labels and annotations: {@link #labels}, {@link #annotations}.
     */
    public Pod field(String path, String value) {
      if (!ENV_FIELD_PATHS.contains(path)
          || path.startsWith("metadata.labels")
          || path.startsWith("metadata.annotations")) {
        throw new IllegalArgumentException(
            "not a plain env fieldRef path: "
                + path
                + " (labels and annotations: labels(), annotations())");
      }
      fields.put(path, value);
      return this;
    }

    /** The pod's labels, for metadata.labels and metadata.labels['key']. */
    public Pod labels(Map<String, String> labels) {
      this.labels = Map.copyOf(labels);
      return this;
    }

    /** The pod's annotations, for metadata.annotations and metadata.annotations['key']. */
    public Pod annotations(Map<String, String> annotations) {
      this.annotations = Map.copyOf(annotations);
      return this;
    }

    /**
     * Service link variables (KUBERNETES_SERVICE_HOST, ...): the kubelet's serviceEnv, which $(VAR) in env values
     * may reference and which is added after the container's own variables unless one of them has the name.
     */
    public Pod services(Map<String, String> serviceEnvironment) {
      services.putAll(serviceEnvironment);
      return this;
    }

    /** The ENTRYPOINT and CMD of an image, needed when a container using it leaves command empty. */
    public Pod image(String reference, List<String> entrypoint, List<String> cmd) {
      images.put(reference, new Image(List.copyOf(entrypoint), List.copyOf(cmd)));
      return this;
    }

    /** The container of {@code spec.containers} with that name, as it would start. */
    public Container container(String name) {
      return new Container(this, find("containers", name));
    }

    /** The container of {@code spec.initContainers} with that name, as it would start. */
    public Container initContainer(String name) {
      return new Container(this, find("initContainers", name));
    }

    private JsonNode find(String list, String name) {
      List<String> names = new ArrayList<>();
      for (JsonNode container : spec.path(list)) {
        if (container.path("name").asText().equals(name)) {
          return container;
        }
        names.add(container.path("name").asText());
      }
      throw new AssertionError(
          "no " + list + " entry named " + name + " (there are " + names + ")");
    }

    /** The key/value pairs of a Secret (decoded) or ConfigMap, or null when there is no such object. */
    private Map<String, String> read(String kind, String name) {
      JsonNode object = objects.get(kind + "/" + name);
      if (object == null) {
        return null;
      }
      Map<String, String> values = new LinkedHashMap<>();
      if (kind.equals("Secret")) {
        object
            .path("data")
            .fields()
            .forEachRemaining(
                e ->
                    values.put(
                        e.getKey(),
                        new String(
                            Base64.getDecoder().decode(e.getValue().asText()),
                            StandardCharsets.UTF_8)));
        object
            .path("stringData")
            .fields()
            .forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
      } else {
        object
            .path("data")
            .fields()
            .forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
      }
      return values;
    }

    /** The value of an env fieldRef: kubelet_pods.go {@code podFieldSelectorRuntimeValue}. */
    private String fieldValue(String variable, String path) {
      if (path.equals("spec.host")) { // old alias (pods/helpers.go ConvertDownwardAPIFieldLabel)
        path = "spec.nodeName";
      }
      String subscripted = subscript(path, "metadata.labels", labels, variable);
      if (subscripted == null) {
        subscripted = subscript(path, "metadata.annotations", annotations, variable);
      }
      if (subscripted != null) {
        return subscripted;
      }
      if (!ENV_FIELD_PATHS.contains(path)) {
        throw new AssertionError("env " + variable + ": field label not supported: " + path);
      }
      if (fields.containsKey(path)) {
        return fields.get(path);
      }
      if (path.startsWith("spec.") && spec.hasNonNull(path.substring("spec.".length()))) {
        return spec.get(path.substring("spec.".length())).asText();
      }
      throw new AssertionError(
          "env "
              + variable
              + " reads fieldRef "
              + path
              + ", which the test did not give: "
              + "call field(\""
              + path
              + "\", ...)");
    }

    /**
     * metadata.labels['k'] is the value or "" for a missing key; metadata.labels alone is every pair as
     * {@code k="v"} lines sorted by key (k8s.io/kubernetes pkg/fieldpath/fieldpath.go {@code FormatMap}).
     */
    private static String subscript(
        String path, String base, Map<String, String> map, String variable) {
      if (!path.equals(base) && !path.startsWith(base + "['")) {
        return null;
      }
      if (map == null) {
        throw new AssertionError(
            "env "
                + variable
                + " reads "
                + path
                + ": declare the pod's "
                + base.substring("metadata.".length())
                + " first");
      }
      if (path.equals(base)) {
        StringBuilder lines = new StringBuilder();
        new TreeMap<>(map)
            .forEach(
                (k, v) ->
                    lines
                        .append(k)
                        .append("=\"")
                        .append(v.replace("\\", "\\\\").replace("\"", "\\\""))
                        .append("\"\n"));
        return lines.isEmpty() ? "" : lines.substring(0, lines.length() - 1);
      }
      if (!path.endsWith("']")) {
        throw new AssertionError("env " + variable + ": malformed subscript " + path);
      }
      return map.getOrDefault(path.substring(base.length() + 2, path.length() - 2), "");
    }
  }

  /** Field paths an env fieldRef may name (pkg/apis/core/pods/helpers.go ConvertDownwardAPIFieldLabel). */
  private static final Set<String> ENV_FIELD_PATHS =
      Set.of(
          "metadata.annotations",
          "metadata.labels",
          "metadata.name",
          "metadata.namespace",
          "metadata.uid",
          "spec.nodeName",
          "spec.restartPolicy",
          "spec.serviceAccountName",
          "spec.schedulerName",
          "status.phase",
          "status.hostIP",
          "status.hostIPs",
          "status.podIP",
          "status.podIPs");

  /** A container as its process starts: argv and environment. */
  public static final class Container {
    private final String name;
    private final Map<String, String> environment;
    private final List<String> argv;
    private final Set<String> unresolved = new LinkedHashSet<>();

    private Container(Pod pod, JsonNode container) {
      this.name = container.path("name").asText();
      this.environment = makeEnvironment(pod, container);
      this.argv = makeArgv(pod, container);
    }

    /** The process's argv: command and args expanded, merged with the image's ENTRYPOINT and CMD. */
    public List<String> argv() {
      return argv;
    }

    /** The process's environment as the kubelet builds it (see the class comment on order). */
    public Map<String, String> environment() {
      return Collections.unmodifiableMap(environment);
    }

    /**
     * Names in {@code $(NAME)} references (env values, command, args) that stayed literal: NAME undefined. A
     * shell's command substitution such as {@code $(seq 1 60)} is one too; it reaches the shell unchanged, but
     * only because no variable has that name.
     */
    public Set<String> unresolvedReferences() {
      return Collections.unmodifiableSet(unresolved);
    }

    /**
     * The environment the process runs with: exactly the container's plus {@code overrides} (the test's stand-ins
     * for what the image and the cluster give: PATH, hosts, ports), not the test JVM's environment.
     */
    public Map<String, String> environmentWith(Map<String, String> overrides) {
      Map<String, String> env = new LinkedHashMap<>(environment);
      env.putAll(overrides);
      return env;
    }

    private String expandRecording(
        String text, Map<String, String> first, Map<String, String> second) {
      return expand(
          text,
          n -> {
            String value = first.containsKey(n) ? first.get(n) : second.get(n);
            if (value == null) {
              unresolved.add(n);
            }
            return value;
          });
    }

    /** kubelet_pods.go {@code makeEnvironmentVariables}: envFrom first, then env in order, then serviceEnv. */
    private Map<String, String> makeEnvironment(Pod pod, JsonNode container) {
      Map<String, String> env = new LinkedHashMap<>();
      for (JsonNode from : container.path("envFrom")) {
        String kind =
            from.has("secretRef") ? "Secret" : from.has("configMapRef") ? "ConfigMap" : null;
        if (kind == null) {
          throw new AssertionError(
              name + ": envFrom entry with neither secretRef nor configMapRef: " + from);
        }
        JsonNode ref = from.get(kind.equals("Secret") ? "secretRef" : "configMapRef");
        Map<String, String> values = pod.read(kind, ref.path("name").asText());
        if (values == null) {
          if (ref.path("optional").asBoolean(false)) {
            continue; // a missing optional object adds nothing
          }
          throw new AssertionError(
              name
                  + " cannot start: envFrom "
                  + kind
                  + " "
                  + ref.path("name").asText()
                  + " not found");
        }
        String prefix = from.path("prefix").asText("");
        values.forEach((k, v) -> env.put(prefix + k, v));
      }
      for (JsonNode var : container.path("env")) {
        String variable = var.path("name").asText();
        String value = var.path("value").asText("");
        if (!value.isEmpty()) {
          // Step 1a: expanded against the variables so far, then serviceEnv (MappingFuncFor(tmpEnv,
          // serviceEnv)).
          env.put(variable, expandRecording(value, env, pod.services));
          continue;
        }
        JsonNode from = var.get("valueFrom");
        if (from == null) {
          env.put(variable, "");
          continue;
        }
        String resolved = valueFrom(pod, variable, from);
        if (resolved
            != null) { // null: an optional reference that is missing leaves the variable unset
          env.put(variable, resolved);
        }
      }
      pod.services.forEach(env::putIfAbsent);
      return env;
    }

    /** Step 1b of makeEnvironmentVariables: a value from a source, not expanded. */
    private String valueFrom(Pod pod, String variable, JsonNode from) {
      if (from.has("fieldRef")) {
        String version = from.at("/fieldRef/apiVersion").asText("v1");
        if (!version.equals("v1")) {
          throw new AssertionError("env " + variable + ": unsupported pod version: " + version);
        }
        return pod.fieldValue(variable, from.at("/fieldRef/fieldPath").asText());
      }
      for (String kind : List.of("Secret", "ConfigMap")) {
        JsonNode ref = from.get(kind.equals("Secret") ? "secretKeyRef" : "configMapKeyRef");
        if (ref == null) {
          continue;
        }
        String object = ref.path("name").asText();
        String key = ref.path("key").asText();
        boolean optional = ref.path("optional").asBoolean(false);
        Map<String, String> values = pod.read(kind, object);
        if (values == null || !values.containsKey(key)) {
          if (optional) {
            return null;
          }
          throw new AssertionError(
              name
                  + " cannot start: env "
                  + variable
                  + " reads key "
                  + key
                  + " of "
                  + kind
                  + " "
                  + object
                  + (values == null ? ", which does not exist" : ", which has no such key"));
        }
        return values.get(key);
      }
      throw new AssertionError(
          "env "
              + variable
              + ": valueFrom "
              + from.fieldNames().next()
              + " is not modelled (only fieldRef, secretKeyRef, configMapKeyRef)");
    }

    /**
     * Command and args expanded against the final environment (pkg/kubelet/container/helpers.go
     * {@code ExpandContainerCommandAndArgs}), then merged with the image by the runtime (containerd
     * internal/cri/opts/spec_opts.go {@code WithProcessArgs}): no command means the image's ENTRYPOINT, and
     * its CMD too when args are empty as well; a command set ignores CMD.
     */
    private List<String> makeArgv(Pod pod, JsonNode container) {
      List<String> command = expandAll(container.path("command"));
      List<String> args = expandAll(container.path("args"));
      if (command.isEmpty()) {
        String reference = container.path("image").asText();
        Image image = pod.images.get(reference);
        if (image == null) {
          throw new AssertionError(
              name
                  + " has no command, so its image's ENTRYPOINT runs: declare image(\""
                  + reference
                  + "\", entrypoint, cmd)");
        }
        if (args.isEmpty()) {
          args = image.cmd();
        }
        // An ENTRYPOINT of [""] means none (spec_opts.go WithProcessArgs).
        if (!image.entrypoint().equals(List.of(""))) {
          command = image.entrypoint();
        }
      }
      if (command.isEmpty() && args.isEmpty()) {
        throw new AssertionError(name + " cannot start: no command specified");
      }
      List<String> argv = new ArrayList<>(command);
      argv.addAll(args);
      return List.copyOf(argv);
    }

    private List<String> expandAll(JsonNode strings) {
      List<String> out = new ArrayList<>();
      for (JsonNode s : strings) {
        out.add(
            expandRecording(
                Objects.requireNonNull(s.textValue(), "not a string: " + s),
                environment,
                Map.of()));
      }
      return out;
    }
  }
}
