package dev.metahooks.cli.diff;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.HookVersion;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.RecordingKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads what {@code metahooks diff} compares: recordings ({@code METAHOOKS_RECORD_DIR}'s files, or directories of
 * them), hook requests, or a request built from live objects as Metacontroller would build it. Anything unreadable
 * is a {@link BadInput} naming the file and what is wrong.
 */
final class Cases {
  private static final YAMLMapper YAML =
      YAMLMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();

  /** Input the command cannot use; exit code 2. */
  static final class BadInput extends RuntimeException {
    BadInput(String message) {
      super(message);
    }
  }

  private Cases() {}

  /**
   * Every recording in the files and directories given, in name order (the recorder's names sort by time), compared
   * with its recorded answer, or with what its request observed when {@code observed}. A plain hook request (what
   * Metacontroller POSTs, as a golden fixture's request) has no recorded answer: it is compared with what it observed,
   * its hooks' clock the current time.
   */
  static List<DiffCase> recordings(List<Path> paths, boolean observed, RecordingKey key) {
    List<DiffCase> cases = new ArrayList<>();
    for (Path path : paths) {
      for (Path file : files(path)) {
        JsonNode node = opened(read(file), file, key);
        if (!node.has("request")
            && node.path("controller").isObject()
            && (node.path("parent").isObject() || node.path("object").isObject())) {
          cases.add(request(file, (ObjectNode) node).againstObserved());
          continue;
        }
        if (!node.path("controller").isTextual()
            || !node.path("hook").isTextual()
            || !node.path("request").isObject()
            || !(observed || node.path("response").isObject())) {
          throw new BadInput(
              file
                  + ": neither a recording (an object with controller, hook, request and response)"
                  + " nor a hook request (an object with controller and parent or object)");
        }
        DiffCase recorded =
            new DiffCase(
                file.toString(),
                node.get("controller").asText(),
                node.get("hook").asText(),
                (ObjectNode) node.get("request"),
                node.get("response"),
                false,
                recordedAt(node, file),
                generated(node.path("generated"), file));
        cases.add(observed ? recorded.againstObserved() : recorded);
      }
    }
    return cases;
  }

  /**
   * A hook request as Metacontroller sends it: the hook is customize when it observes nothing (no children or
   * attachments), finalize when {@code finalizing}, else sync; the controller is the one the manifest's URL of that
   * hook names.
   */
  private static DiffCase request(Path file, ObjectNode request) {
    JsonNode manifest = request.get("controller");
    String hook =
        !request.has("children") && !request.has("attachments")
            ? "customize"
            : request.path("finalizing").asBoolean(false) ? "finalize" : "sync";
    return new DiffCase(
        file.toString(),
        controllerPath(manifest, hook, file + ": controller"),
        hook,
        request,
        null,
        true,
        Instant.now());
  }

  /** The controller's name in the server's URL of a hook: {@code .../<controller>/<hook>}. */
  private static String controllerPath(JsonNode manifest, String hook, String where) {
    String url = manifest.at("/spec/hooks/" + hook + "/webhook/url").asText("");
    String[] segments = url.replaceAll("/+$", "").split("/");
    if (segments.length < 2 || !segments[segments.length - 1].equals(hook)) {
      throw new BadInput(
          where
              + ": spec.hooks."
              + hook
              + ".webhook.url must end in /<controller>/"
              + hook
              + ", got '"
              + url
              + "'");
    }
    return segments[segments.length - 2];
  }

  /**
   * One sync request per parent, as Metacontroller builds it: the controller manifest, the parent, and as children
   * the observed objects whose controller owner reference is that parent, keyed {@code Kind.apiVersion} and by name
   * (namespace/name where hook version v2 asks for it). A parent being deleted gets {@code finalize} when the
   * controller has that hook.
   *
   * Every child resource the controller declares is a group of the request, empty or not, as Metacontroller sends it
   * (metacontroller v4.17.2, pkg/controller/composite/controller.go:860-861, "Always include the requested groups,
   * even if there are no entries"); a group's kind comes from {@link ChildKinds}.
   *
   * @param manifest a CompositeController, YAML or JSON (metacontroller/catset.yaml as it is)
   * @param parents a parent, or a List of them ({@code kubectl get <kind> -o json} or {@code -o yaml})
   * @param observed objects or Lists of them ({@code kubectl get <kinds> -l ... -o json}), and the CRDs of custom
   *     child kinds that have no object yet
   */
  /** The customize hook's answer to a request, as this build's server gives it. */
  interface Customize {
    JsonNode answer(String controller, ObjectNode request);
  }

  static List<DiffCase> live(
      Path manifest, Path parents, List<Path> observed, Customize customize) {
    JsonNode controller = single(documents(manifest), manifest);
    if (!"CompositeController".equals(controller.path("kind").asText())) {
      throw new BadInput(
          manifest
              + ": not a CompositeController (live requests are built for composite "
              + "controllers; for a DecoratorController, record its calls with METAHOOKS_RECORD_DIR)");
    }
    List<JsonNode> children = new ArrayList<>();
    for (Path file : observed) {
      children.addAll(items(documents(file)));
    }
    List<String> declared = declaredGroups(controller, new ChildKinds(children), manifest);
    List<DiffCase> cases = new ArrayList<>();
    List<JsonNode> parentList = items(documents(parents));
    // Related objects may be of the parent's own kind (a namespace's clusters).
    List<JsonNode> relatable = new ArrayList<>(children);
    relatable.addAll(parentList);
    for (JsonNode parent : parentList) {
      boolean finalizing = parent.path("metadata").has("deletionTimestamp");
      String hook =
          finalizing && controller.at("/spec/hooks/finalize").isObject() ? "finalize" : "sync";
      String controllerName = controllerPath(controller, hook, manifest.toString());
      boolean v2 = "v2".equals(controller.at("/spec/hooks/" + hook + "/version").asText());
      ObjectNode request = Json.object();
      request.set("controller", controller);
      request.set("parent", parent);
      ObjectNode groups = request.putObject("children");
      declared.forEach(groups::putObject);
      ArrayNode owned = JsonTrees.MAPPER.createArrayNode();
      for (JsonNode child : children) {
        // Metacontroller claims children of the declared types only.
        if (ownedBy(child, parent) && groups.has(groupKey(child))) {
          String namespace = child.path("metadata").path("namespace").asText("");
          String name = child.path("metadata").path("name").asText();
          String key =
              ObjectMap.key(
                  v2 ? HookVersion.V2 : HookVersion.V1,
                  parent.path("metadata").path("namespace").asText(""),
                  namespace,
                  name);
          ((ObjectNode) groups.get(groupKey(child))).set(key, child);
          owned.add(child);
        }
      }
      request.set("related", related(controller, parent, relatable, customize, manifest));
      request.put("finalizing", finalizing);
      ObjectNode before = Json.object();
      before.set("children", owned);
      before.set("status", parent.path("status").isObject() ? parent.get("status") : Json.object());
      String source = "live " + Objects.describe(parent, "");
      cases.add(new DiffCase(source, controllerName, hook, request, before, true, Instant.now()));
    }
    return cases;
  }

  /** What Metacontroller relates to the parent through the customize hook ({} without one). */
  private static ObjectNode related(
      JsonNode controller,
      JsonNode parent,
      List<JsonNode> objects,
      Customize customize,
      Path manifest) {
    if (!controller.at("/spec/hooks/customize").isObject()) {
      return Json.object();
    }
    ObjectNode call = Json.object();
    call.set("controller", controller);
    call.set("parent", parent);
    JsonNode answer =
        customize.answer(controllerPath(controller, "customize", manifest.toString()), call);
    boolean v2 = "v2".equals(controller.at("/spec/hooks/customize/version").asText());
    return RelatedObjects.of(
        answer.path("relatedResources"),
        parent,
        objects,
        new ChildKinds(objects),
        v2,
        manifest.toString());
  }

  /** The group key of every child resource the controller declares, in its order. */
  private static List<String> declaredGroups(JsonNode controller, ChildKinds kinds, Path manifest) {
    List<String> groups = new ArrayList<>();
    JsonNode declared = controller.at("/spec/childResources");
    for (int i = 0; i < declared.size(); i++) {
      String apiVersion = declared.get(i).path("apiVersion").asText();
      String resource = declared.get(i).path("resource").asText();
      String kind =
          kinds
              .kindOf(apiVersion, resource)
              .orElseThrow(
                  () ->
                      new BadInput(
                          manifest
                              + ": the kind of spec.childResources "
                              + apiVersion
                              + " "
                              + resource
                              + " is not known here; add its CRD"
                              + " to the observed files (kubectl get crd "
                              + resource
                              + "."
                              + apiVersion.replaceAll("/[^/]*$", "")
                              + " -o json)"));
      groups.add(ObjectMap.groupKey(apiVersion, kind));
    }
    return groups;
  }

  /** A recording whose Secret values are sealed ({@code METAHOOKS_RECORD_KEY_FILE}), opened with the key. */
  private static JsonNode opened(JsonNode node, Path file, RecordingKey key) {
    if (!RecordingKey.anySealed(node)) {
      return node;
    }
    if (key == null) {
      throw new BadInput(
          file
              + ": its Secret values are sealed; give the key it was recorded with (--key <file>,"
              + " the file of METAHOOKS_RECORD_KEY_FILE)");
    }
    try {
      return key.openAll(node);
    } catch (IllegalArgumentException e) {
      throw new BadInput(file + ": " + e.getMessage());
    }
  }

  private static Map<String, String> generated(JsonNode generated, Path file) {
    Map<String, String> secrets = new LinkedHashMap<>();
    if (generated.isMissingNode()) {
      return secrets;
    }
    if (!generated.isObject()) {
      throw new BadInput(file + ": generated must be an object of purpose to secret");
    }
    generated.properties().forEach(entry -> secrets.put(entry.getKey(), entry.getValue().asText()));
    return secrets;
  }

  private static Instant recordedAt(JsonNode recording, Path file) {
    try {
      return Instant.parse(recording.path("recordedAt").asText());
    } catch (java.time.format.DateTimeParseException e) {
      throw new BadInput(
          file
              + ": recordedAt must be an ISO-8601 instant, got '"
              + recording.path("recordedAt")
              + "'");
    }
  }

  private static String groupKey(JsonNode child) {
    return ObjectMap.groupKey(child.path("apiVersion").asText(), child.path("kind").asText());
  }

  /** Metacontroller's children of a parent: objects whose controller owner reference has the parent's uid. */
  private static boolean ownedBy(JsonNode child, JsonNode parent) {
    String uid = parent.path("metadata").path("uid").asText("");
    for (JsonNode owner : child.path("metadata").path("ownerReferences")) {
      if (owner.path("controller").asBoolean(false)
          && !uid.isEmpty()
          && uid.equals(owner.path("uid").asText())) {
        return true;
      }
    }
    return false;
  }

  /** The objects of Lists ({@code kind: List} or any {@code ...List}), or the objects themselves. */
  private static List<JsonNode> items(List<JsonNode> documents) {
    List<JsonNode> items = new ArrayList<>();
    for (JsonNode node : documents) {
      if (node.has("items") && node.path("kind").asText().endsWith("List")) {
        node.get("items").forEach(items::add);
      } else if (node.isObject()) {
        items.add(node);
      }
    }
    return items;
  }

  private static JsonNode single(List<JsonNode> documents, Path file) {
    List<JsonNode> items = items(documents);
    if (items.size() != 1) {
      throw new BadInput(file + ": expected one object, found " + items.size());
    }
    return items.get(0);
  }

  private static List<Path> files(Path path) {
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    if (!Files.isDirectory(path)) {
      throw new BadInput(path + ": no such file or directory");
    }
    try (Stream<Path> listed = Files.list(path)) {
      List<Path> files =
          listed
              .filter(f -> f.getFileName().toString().endsWith(".json"))
              .filter(f -> !f.getFileName().toString().startsWith("."))
              .sorted()
              .toList();
      if (files.isEmpty()) {
        throw new BadInput(path + ": no .json recordings in it");
      }
      return files;
    } catch (IOException e) {
      throw new BadInput(path + ": " + e.getMessage());
    }
  }

  /**
   * The objects of a file as kubectl writes or a person keeps it: JSON ({@code -o json}), or YAML of one or more
   * documents ({@code -o yaml}, a manifest).
   */
  private static List<JsonNode> documents(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new BadInput(file + ": " + (Files.exists(file) ? e.getMessage() : "no such file"));
    }
    if (text.stripLeading().startsWith("{")) {
      return List.of(read(file));
    }
    List<JsonNode> documents = new ArrayList<>();
    try (JsonParser parser = YAML.createParser(text)) {
      while (parser.nextToken() != null) {
        JsonNode document = YAML.readTree(parser);
        if (document != null && document.isObject()) {
          documents.add(document);
        } else if (document != null && !document.isNull() && !document.isMissingNode()) {
          throw new BadInput(file + ": a YAML document that is not an object");
        }
      }
    } catch (IOException e) {
      throw new BadInput(file + ": neither JSON nor YAML: " + e.getMessage());
    }
    if (documents.isEmpty()) {
      throw new BadInput(file + ": no object in it");
    }
    return documents;
  }

  private static JsonNode read(Path file) {
    try {
      JsonNode node = JsonTrees.MAPPER.readTree(Files.readAllBytes(file));
      if (node == null || !node.isObject()) {
        throw new BadInput(file + ": not a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new BadInput(
          file + ": " + (Files.exists(file) ? "not JSON: " + e.getMessage() : "no such file"));
    }
  }
}
