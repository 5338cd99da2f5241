package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.kube.CrdSchema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TypedParentTest {
  enum Mode {
    Fast,
    Safe
  }

  record Port(String name, @Range(min = 1, max = 65535) int port) {}

  record Spec(
      @Description("Who to greet") String who,
      Optional<String> note,
      boolean paused,
      Optional<Boolean> dryRun,
      @Range(min = 0, max = 16) int instances,
      long generation,
      Optional<Integer> copies,
      Mode mode,
      Optional<Mode> fallback,
      List<String> names,
      Optional<List<String>> aliases,
      List<Port> ports,
      Map<String, String> labels,
      Optional<Port> admin,
      Optional<ObjectNode> template) {}

  record Status(
      String message,
      int pods,
      Optional<String> reason,
      Optional<Mode> mode,
      List<String> names,
      Optional<Port> admin,
      Map<String, String> labels,
      Boolean ready) {}

  private static final TypedParent<Spec, Status> PARENT = TypedParent.of(Spec.class, Status.class);

  private static ObjectNode parent(String spec) throws Exception {
    ObjectNode parent = Json.object();
    parent.set("spec", JsonTrees.MAPPER.readTree(spec));
    return parent;
  }

  private static final String GOOD =
      """
      {"who": "Team", "paused": false, "instances": 3, "generation": 12345678901, "mode": "Safe",
       "names": ["a", "b"], "ports": [{"name": "http", "port": 8080}], "labels": {"app": "web"},
       "copies": 2, "fallback": "Fast", "template": {"x": [1]}}""";

  @Test
  void readsEveryComponentTypeAsItsRecord() throws Exception {
    Spec spec = PARENT.spec(parent(GOOD));

    assertThat(spec)
        .isEqualTo(
            new Spec(
                "Team",
                Optional.empty(),
                false,
                Optional.empty(),
                3,
                12345678901L,
                Optional.of(2),
                Mode.Safe,
                Optional.of(Mode.Fast),
                List.of("a", "b"),
                Optional.empty(),
                List.of(new Port("http", 8080)),
                Map.of("app", "web"),
                Optional.empty(),
                Optional.of((ObjectNode) JsonTrees.MAPPER.readTree("{\"x\": [1]}"))));
  }

  @Test
  void theFirstProblemIsA422NamingTheFieldAsFieldReaderNamesIt() throws Exception {
    ObjectNode parent = parent(GOOD.replace("\"who\": \"Team\"", "\"who\": 5"));
    InvalidRequestException typed = catchInvalid(() -> PARENT.spec(parent));
    InvalidRequestException plain =
        catchInvalid(() -> FieldReader.spec(parent).requiredString("who"));

    assertThat(typed.field()).isEqualTo("parent.spec.who");
    assertThat(typed.getMessage())
        .isEqualTo(plain.getMessage())
        .isEqualTo("parent.spec.who: must be a non-empty string");
    assertThatThrownBy(
            () -> PARENT.spec(parent(GOOD.replace("\"instances\": 3", "\"instances\": 17"))))
        .hasMessage("parent.spec.instances: must be between 0 and 16");
    assertThatThrownBy(() -> PARENT.spec(parent(GOOD.replace("\"port\": 8080", "\"port\": 0"))))
        .hasMessage("parent.spec.ports[0].port: must be between 1 and 65535");
    assertThatThrownBy(() -> PARENT.spec(parent(GOOD.replace("\"mode\": \"Safe\",", ""))))
        .hasMessage("parent.spec.mode: is required");
  }

  /** Every problem of a bad spec, collected: the same list, in the same order, as FieldReader's reads of it. */
  @Test
  void collectsTheSameProblemsAsFieldReaderAndReadsOn() throws Exception {
    ObjectNode parent =
        parent(
            """
        {"note": 1, "paused": "no", "dryRun": 0, "instances": 99, "generation": 1.5, "copies": 3000000000,
         "mode": "Slow", "fallback": 2, "names": ["a", ""], "aliases": "x", "ports": [{"name": "p"}, 4],
         "labels": {"app": 1}, "admin": [], "template": "t"}""");
    FieldProblems typed = FieldProblems.collecting();
    Spec spec = PARENT.spec(parent, typed);

    FieldProblems plain = FieldProblems.collecting();
    FieldReader reader = FieldReader.spec(parent, plain);
    reader.requiredString("who");
    reader.optionalString("note");
    reader.optionalBoolean("paused");
    reader.optionalBoolean("dryRun");
    reader.optionalInteger("instances", 0, 16);
    reader.optionalInteger("generation");
    reader.optionalInteger("copies", Integer.MIN_VALUE, Integer.MAX_VALUE);
    reader.optionalOneOf("mode", List.of("Fast", "Safe"));
    reader.optionalOneOf("fallback", List.of("Fast", "Safe"));
    reader.requiredStringList("names");
    reader.optionalStringList("aliases");
    for (FieldReader port : reader.requiredObjects("ports")) {
      port.requiredString("name");
      if (!port.isSet("port")) {
        port.report("port", "is required");
      }
    }
    reader.requiredStringMap("labels");
    reader
        .optionalObject("admin")
        .ifPresent(
            admin -> {
              admin.requiredString("name");
              admin.report("port", "is required");
            });
    reader.optionalObject("template");

    assertThat(typed.list()).isEqualTo(plain.list()).hasSizeGreaterThan(12);
    assertThat(typed.list())
        .extracting(FieldProblem::toString)
        .contains(
            "parent.spec.who: is required", "parent.spec.ports[0].port: is required",
            "parent.spec.ports[1]: must be an object",
                "parent.spec.mode: must be one of Fast, Safe");
    // What was wrong reads as empty.
    assertThat(spec.who()).isEmpty();
    assertThat(spec.instances()).isZero();
    assertThat(spec.mode()).isNull();
    assertThat(spec.fallback()).isEmpty();
    assertThat(spec.names()).containsExactly("a", "");
    assertThat(spec.ports()).containsExactly(new Port("p", 0), new Port("", 0));
  }

  @Test
  void writesTheStatusInDeclarationOrderLeavingOutWhatIsEmpty() {
    ObjectNode status =
        PARENT.status(
            new Status(
                "hi",
                2,
                Optional.empty(),
                Optional.of(Mode.Fast),
                List.of("a"),
                Optional.of(new Port("http", 80)),
                Map.of("k", "v"),
                null));

    assertThat(status.toString())
        .isEqualTo(
            "{\"message\":\"hi\",\"pods\":2,\"mode\":\"Fast\",\"names\":[\"a\"],\"admin\":{\"name\":\"http\",\"port\":80},"
                + "\"labels\":{\"k\":\"v\"}}");
  }

  @Test
  void generatesTheSchemaOfWhatItReads() throws Exception {
    ObjectNode schema = PARENT.openApiV3Schema();

    assertThat(schema.at("/required").toString()).isEqualTo("[\"spec\"]");
    ObjectNode spec = (ObjectNode) schema.at("/properties/spec");
    assertThat(spec.path("required").toString())
        .isEqualTo(
            "[\"who\",\"paused\",\"instances\",\"generation\",\"mode\",\"names\",\"ports\",\"labels\"]");
    assertThat(spec.at("/properties/who"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree(
                "{\"type\": \"string\", \"description\": \"Who to greet\", \"minLength\": 1}"));
    assertThat(spec.at("/properties/note"))
        .isEqualTo(JsonTrees.MAPPER.readTree("{\"type\": \"string\"}"));
    assertThat(spec.at("/properties/instances"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree("{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 16}"));
    assertThat(spec.at("/properties/mode"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree("{\"type\": \"string\", \"enum\": [\"Fast\", \"Safe\"]}"));
    assertThat(spec.at("/properties/aliases"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree(
                "{\"type\": \"array\", \"items\": {\"type\": \"string\", \"minLength\": 1}}"));
    assertThat(spec.at("/properties/ports/items"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree(
                """
        {"type": "object", "properties": {"name": {"type": "string", "minLength": 1},
         "port": {"type": "integer", "minimum": 1, "maximum": 65535}}, "required": ["name", "port"]}"""));
    assertThat(spec.at("/properties/labels"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree(
                "{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}"));
    assertThat(spec.at("/properties/template"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree(
                "{\"type\": \"object\", \"x-kubernetes-preserve-unknown-fields\": true}"));
    // Only the hook writes the status: its schema requires nothing, nested records included.
    assertThat(schema.at("/properties/status").toString())
        .doesNotContain("required")
        .doesNotContain("minLength");
    assertThat(schema.at("/properties/status/properties/admin/properties/port/maximum").asInt())
        .isEqualTo(65535);
  }

  /**
   * The API server, checking the generated schema, refuses each spec the hook refuses and stores each it reads:
   * a CRD's schema and the hook cannot disagree on a value a schema can describe.
   */
  @Test
  void theSchemaRefusesWhatTheHookRefuses() throws Exception {
    CrdSchema schema = CrdSchema.of(PARENT.openApiV3Schema());
    List<String> specs =
        List.of(
            GOOD,
            GOOD.replace("\"who\": \"Team\"", "\"who\": \"\""),
            GOOD.replace("\"who\": \"Team\",", ""),
            GOOD.replace("\"names\": [\"a\", \"b\"]", "\"names\": [\"a\", \"\"]"),
            GOOD.replace("\"names\": [\"a\", \"b\"]", "\"names\": [], \"aliases\": [\"\"]"),
            GOOD.replace("\"name\": \"http\"", "\"name\": \"\""),
            GOOD.replace("\"instances\": 3", "\"instances\": 17"),
            GOOD.replace("\"instances\": 3", "\"instances\": -1"),
            GOOD.replace("\"port\": 8080", "\"port\": 65536"),
            GOOD.replace("\"mode\": \"Safe\"", "\"mode\": \"Slow\""),
            GOOD.replace("\"copies\": 2", "\"copies\": 3000000000"),
            GOOD.replace("\"who\": \"Team\"", "\"who\": \"Team\", \"note\": \"\""));
    int refused = 0;
    for (String spec : specs) {
      ObjectNode parent = parent(spec);
      boolean hookRefuses = refuses(() -> PARENT.spec(parent));
      assertThat(schema.validate(parent))
          .as("the schema's errors for %s", spec)
          .matches(errors -> errors.isEmpty() != hookRefuses, hookRefuses ? "not empty" : "empty");
      refused += hookRefuses ? 1 : 0;
    }
    assertThat(refused).isEqualTo(specs.size() - 2);
  }

  record Named(@Pattern("^[a-z]+$") String name, @Pattern("^[0-9]+$") Optional<String> code) {}

  @Test
  void aPatternIsReadAndInTheSchema() throws Exception {
    TypedParent<Named, OnlyOptional> named = TypedParent.of(Named.class, OnlyOptional.class);
    CrdSchema schema = CrdSchema.of(named.openApiV3Schema());

    assertThat(named.spec(parent("{\"name\": \"web\", \"code\": \"42\"}")))
        .isEqualTo(new Named("web", Optional.of("42")));
    assertThatThrownBy(() -> named.spec(parent("{\"name\": \"Web\"}")))
        .hasMessage("parent.spec.name: must match ^[a-z]+$");
    assertThatThrownBy(() -> named.spec(parent("{\"name\": \"web\", \"code\": \"4x\"}")))
        .hasMessage("parent.spec.code: must match ^[0-9]+$");
    assertThat(named.openApiV3Schema().at("/properties/spec/properties/name"))
        .isEqualTo(
            JsonTrees.MAPPER.readTree(
                "{\"type\": \"string\", \"pattern\": \"^[a-z]+$\", \"minLength\": 1}"));
    assertThat(schema.validate(parent("{\"name\": \"Web\"}"))).hasSize(1);
    assertThat(schema.validate(parent("{\"name\": \"web\", \"code\": \"4x\"}"))).hasSize(1);
    // In the collecting mode a value that does not match reads as empty.
    FieldProblems problems = FieldProblems.collecting();
    assertThat(named.spec(parent("{\"name\": \"Web\", \"code\": \"x\"}"), problems))
        .isEqualTo(new Named("", Optional.empty()));
    assertThat(problems.list()).hasSize(2);
    // An empty name is reported once, as empty, not as a mismatch too.
    FieldProblems empty = FieldProblems.collecting();
    named.spec(parent("{\"name\": \"\"}"), empty);
    assertThat(empty.list())
        .extracting(FieldProblem::toString)
        .containsExactly("parent.spec.name: must be a non-empty string");
  }

  record OnlyOptional(Optional<String> note) {}

  @Test
  void aSpecWithoutRequiredFieldsMayBeAbsent() {
    TypedParent<OnlyOptional, OnlyOptional> parent =
        TypedParent.of(OnlyOptional.class, OnlyOptional.class);

    assertThat(parent.spec(Json.object())).isEqualTo(new OnlyOptional(Optional.empty()));
    assertThat(parent.openApiV3Schema().has("required")).isFalse();
  }

  record Checked(String name) {
    Checked {
      if (name.contains(" ")) {
        throw new InvalidRequestException("parent.spec.name", "must not contain a space");
      }
    }
  }

  @Test
  void aRecordsOwnCheckIsA422Too() {
    assertThatThrownBy(
            () ->
                TypedParent.of(Checked.class, OnlyOptional.class)
                    .spec(parent("{\"name\": \"a b\"}")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("parent.spec.name: must not contain a space");
  }

  record WithDouble(double ratio) {}

  record WithSet(java.util.Set<String> names) {}

  record WithRangedString(@Range(min = 0, max = 1) String name) {}

  record WithPatternedNumber(@Pattern("^1$") int count) {}

  @Test
  void aComponentWithoutAJsonReadingFailsAtOnceNamingIt() {
    assertThatThrownBy(() -> TypedParent.of(WithDouble.class, OnlyOptional.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(WithDouble.class.getName() + ".ratio: no JSON reading for double");
    assertThatThrownBy(() -> TypedParent.of(OnlyOptional.class, WithSet.class))
        .hasMessageContaining(
            WithSet.class.getName()
                + ".names: no JSON reading for java.util.Set<java.lang.String>");
    assertThatThrownBy(() -> TypedParent.of(WithRangedString.class, OnlyOptional.class))
        .hasMessageContaining(".name: @Range is for integers");
    assertThatThrownBy(() -> TypedParent.of(WithPatternedNumber.class, OnlyOptional.class))
        .hasMessageContaining(".count: @Pattern is for strings");
  }

  @Test
  void readsAnyObjectWithItsReadersPath() throws Exception {
    FieldReader observed =
        FieldReader.of(JsonTrees.MAPPER.readTree("{\"name\": \"web\", \"port\": 80}"), "x");
    FieldReader unnamed =
        FieldReader.of(
            JsonTrees.MAPPER.readTree("{\"name\": \"web\"}"), "children['v1/Service'][web]");

    assertThat(TypedParent.read(observed, Port.class)).isEqualTo(new Port("web", 80));
    assertThatThrownBy(() -> TypedParent.read(unnamed, Port.class))
        .hasMessage("children['v1/Service'][web].port: is required");
    assertThat(TypedParent.write(new Port("web", 80)).toString())
        .isEqualTo("{\"name\":\"web\",\"port\":80}");
    assertThat(TypedParent.schema(Port.class).path("required").toString())
        .isEqualTo("[\"name\",\"port\"]");
  }

  private static boolean refuses(Runnable read) {
    try {
      read.run();
      return false;
    } catch (InvalidRequestException e) {
      return true;
    }
  }

  private static InvalidRequestException catchInvalid(Runnable read) {
    try {
      read.run();
    } catch (InvalidRequestException e) {
      return e;
    }
    throw new AssertionError("no InvalidRequestException");
  }
}
