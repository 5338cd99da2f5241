package dev.metahooks.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.KubeletText;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubeletTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> DEFINED =
      Map.of("HOST", "db", "PORT", "5432", "EMPTY", "", "INDIRECT", "$(HOST)");

  /** The rules of expand.go, each case written for this table (input | expected, against DEFINED). */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      ignoreLeadingAndTrailingWhitespace = false,
      textBlock =
          """
      $(HOST)|db
      $(HOST):$(PORT)/$(HOST)|db:5432/db
      host=$(HOST)|host=db
      a$(EMPTY)b|ab
      $(INDIRECT)|$(HOST)
      $(MISSING)|$(MISSING)
      x$(MISSING)y$(PORT)|x$(MISSING)y5432
      $$(HOST)|$(HOST)
      $$$(HOST)|$db
      $$$$(HOST)|$$(HOST)
      $$$$$(MISSING)|$$$(MISSING)
      cost $$5|cost $5
      $HOST|$HOST
      ${HOST}|${HOST}
      $?-$!-$1|$?-$!-$1
      \\$(PORT)|\\5432
      trailing $|trailing $
      $|$
      $(PORT|$(PORT
      $(|$(
      $($($(PORT)|$($($(PORT)
      $(PORT)$(|5432$(
      $(HO$(PORT))|$(HO$(PORT))
      $(HOST$$X)|$(HOST$$X)
      HOST)|HOST)
      (HOST)|(HOST)
      """)
  void expandsLikeTheKubelet(String input, String expected) {
    assertThat(Kubelet.expand(input, DEFINED)).isEqualTo(expected);
  }

  @Test
  void expandsOnlyOnceSoAValueThatLooksLikeAReferenceStaysLiteral() {
    assertThat(Kubelet.expand("$(INDIRECT)-$(INDIRECT)", DEFINED)).isEqualTo("$(HOST)-$(HOST)");
  }

  @Test
  void literalDoublesEveryDollarSoTheProcessReceivesTheText() {
    String script = "echo \"$HOME\" $(date) $$ $(HOST)";
    assertThat(KubeletText.literal(script)).isEqualTo("echo \"$$HOME\" $$(date) $$$$ $$(HOST)");
    assertThat(Kubelet.expand(KubeletText.literal(script), DEFINED)).isEqualTo(script);
  }

  @Test
  void envFromComesFirstWithItsPrefixAndEnvOverridesIt() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"containers": [{"name": "app", "command": ["run"],
          "envFrom": [{"configMapRef": {"name": "settings"}, "prefix": "CFG_"}, {"secretRef": {"name": "creds"}}],
          "env": [{"name": "CFG_mode", "value": "override"}, {"name": "URL", "value": "$(user)@$(CFG_mode)"}]}]}
        """))
            .objects(
                List.of(
                    configMap("settings", Map.of("mode", "fast", "bad.key", "kept")),
                    secret("creds", Map.of("user", "alice"))))
            .container("app");

    assertThat(c.environment())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "CFG_mode",
                "override",
                "CFG_bad.key",
                "kept",
                "user",
                "alice",
                "URL",
                "alice@override"));
    assertThat(List.copyOf(c.environment().keySet()).indexOf("URL")).isEqualTo(3);
  }

  @Test
  void envValuesSeeOnlyTheVariablesDefinedBeforeThem() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "A", "value": "a-$(B)"}, {"name": "B", "value": "b"}, {"name": "C", "value": "c-$(B)-$(A)"},
          {"name": "D"}]}]}
        """))
            .container("app");

    assertThat(c.environment())
        .containsExactly(
            Map.entry("A", "a-$(B)"),
            Map.entry("B", "b"),
            Map.entry("C", "c-b-a-$(B)"),
            Map.entry("D", ""));
    assertThat(c.unresolvedReferences()).containsExactly("B");
  }

  @Test
  void secretDataIsDecodedAndStringDataAccepted() throws Exception {
    ObjectNode written = secret("pw", Map.of("password", "from-data"));
    written.putObject("stringData").put("other", "plain");
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "P", "valueFrom": {"secretKeyRef": {"name": "pw", "key": "password"}}},
          {"name": "O", "valueFrom": {"secretKeyRef": {"name": "pw", "key": "other"}}},
          {"name": "S", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "k"}}}]}]}
        """))
            .objects(List.of(written, configMap("cm", Map.of("k", "$(P)"))))
            .container("app");

    // Values from a source are not expanded.
    assertThat(c.environment())
        .containsExactly(
            Map.entry("P", "from-data"), Map.entry("O", "plain"), Map.entry("S", "$(P)"));
  }

  @Test
  void aMissingOptionalReferenceLeavesTheVariableUnset() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"containers": [{"name": "app", "command": ["run"],
          "envFrom": [{"secretRef": {"name": "absent", "optional": true}}],
          "env": [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "absent", "key": "k", "optional": true}}},
                  {"name": "B", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "nokey", "optional": true}}},
                  {"name": "C", "value": "$(A)"}]}]}
        """))
            .objects(List.of(configMap("cm", Map.of("k", "v"))))
            .container("app");

    assertThat(c.environment()).containsExactly(Map.entry("C", "$(A)"));
  }

  @Test
  void aMissingRequiredReferenceStopsTheContainerFromStarting() throws Exception {
    ObjectNode spec =
        spec(
            """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "A", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "password"}}}]},
          {"name": "other", "command": ["run"], "envFrom": [{"configMapRef": {"name": "gone"}}]}]}
        """);

    assertThatThrownBy(() -> Kubelet.pod(spec).container("app"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("app cannot start")
        .hasMessageContaining("key password of Secret creds")
        .hasMessageContaining("does not exist");
    assertThatThrownBy(
            () ->
                Kubelet.pod(spec)
                    .objects(List.of(secret("creds", Map.of("user", "u"))))
                    .container("app"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("has no such key");
    assertThatThrownBy(() -> Kubelet.pod(spec).container("other"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("envFrom ConfigMap gone not found");
  }

  @Test
  void fieldRefsReadTheGivenFieldsTheSpecAndTheLabels() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"serviceAccountName": "pg", "containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
          {"name": "IPS", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIPs"}}},
          {"name": "SA", "valueFrom": {"fieldRef": {"fieldPath": "spec.serviceAccountName"}}},
          {"name": "ROLE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['role']"}}},
          {"name": "NONE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['absent']"}}},
          {"name": "ALL", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels"}}}]}]}
        """))
            .field("metadata.name", "pg-0")
            .field("status.podIPs", "10.0.0.5,fd00::5")
            .labels(Map.of("role", "primary", "app", "pg"))
            .container("app");

    assertThat(c.environment())
        .containsExactly(
            Map.entry("NAME", "pg-0"),
            Map.entry("IPS", "10.0.0.5,fd00::5"),
            Map.entry("SA", "pg"),
            Map.entry("ROLE", "primary"),
            Map.entry("NONE", ""),
            Map.entry("ALL", "app=\"pg\"\nrole=\"primary\""));
  }

  @Test
  void aFieldRefTheTestDidNotGiveOrKubernetesDoesNotKnowFails() throws Exception {
    ObjectNode unset =
        spec(
            """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}]}]}
        """);
    ObjectNode unknown =
        spec(
            """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "X", "valueFrom": {"fieldRef": {"fieldPath": "spec.hostname"}}}]}]}
        """);
    ObjectNode resource =
        spec(
            """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "MEM", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory"}}}]}]}
        """);

    assertThatThrownBy(() -> Kubelet.pod(unset).container("app"))
        .hasMessageContaining("field(\"status.podIP\"");
    assertThatThrownBy(() -> Kubelet.pod(unknown).container("app"))
        .hasMessageContaining("not supported: spec.hostname");
    assertThatThrownBy(() -> Kubelet.pod(resource).container("app"))
        .hasMessageContaining("resourceFieldRef is not modelled");
  }

  @Test
  void serviceVariablesAreReferenceableAndComeAfterTheContainersOwn() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"containers": [{"name": "app", "command": ["run"], "env": [
          {"name": "API", "value": "https://$(KUBERNETES_SERVICE_HOST)"}, {"name": "KUBERNETES_SERVICE_PORT", "value": "1"}]}]}
        """))
            .services(
                Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"))
            .container("app");

    assertThat(c.environment())
        .containsExactly(
            Map.entry("API", "https://10.96.0.1"),
            Map.entry("KUBERNETES_SERVICE_PORT", "1"),
            Map.entry("KUBERNETES_SERVICE_HOST", "10.96.0.1"));
  }

  @Test
  void commandAndArgsExpandAgainstTheFinalEnvironment() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                spec(
                    """
        {"initContainers": [{"name": "init", "command": ["sh", "-c", "echo $(LATE) $$HOME $(NOPE)"],
          "args": ["$(EARLY)"], "env": [{"name": "EARLY", "value": "e"}, {"name": "LATE", "value": "l"}]}],
         "containers": []}
        """))
            .initContainer("init");

    assertThat(c.argv()).containsExactly("sh", "-c", "echo l $HOME $(NOPE)", "e");
    assertThat(c.unresolvedReferences()).containsExactly("NOPE");
  }

  /** The runtime's merge of command and args with the image (containerd WithProcessArgs). */
  @ParameterizedTest(name = "command {0} args {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      []            | []          | [/entry, default]
      []            | [mine]      | [/entry, mine]
      [/bin/run]    | []          | [/bin/run]
      [/bin/run]    | [mine]      | [/bin/run, mine]
      """)
  void mergesWithTheImageEntrypointAndCmd(String command, String args, String expected)
      throws Exception {
    ObjectNode spec =
        spec(
            "{\"containers\": [{\"name\": \"app\", \"image\": \"img:1\", \"command\": "
                + jsonList(command)
                + ", \"args\": "
                + jsonList(args)
                + "}]}");
    Kubelet.Container c =
        Kubelet.pod(spec).image("img:1", List.of("/entry"), List.of("default")).container("app");

    assertThat(c.argv().toString()).isEqualTo(expected);
  }

  @Test
  void anEmptyEntrypointMeansNoneAndNothingToRunFails() throws Exception {
    ObjectNode spec = spec("{\"containers\": [{\"name\": \"app\", \"image\": \"img:1\"}]}");

    assertThat(
            Kubelet.pod(spec)
                .image("img:1", List.of(""), List.of("/bin/true"))
                .container("app")
                .argv())
        .containsExactly("/bin/true");
    assertThatThrownBy(
            () -> Kubelet.pod(spec).image("img:1", List.of(), List.of()).container("app"))
        .hasMessageContaining("no command specified");
    assertThatThrownBy(() -> Kubelet.pod(spec).container("app"))
        .hasMessageContaining("declare image(\"img:1\"");
  }

  @Test
  void findsContainersByName() throws Exception {
    ObjectNode spec = spec("{\"containers\": [{\"name\": \"a\", \"command\": [\"x\"]}]}");

    assertThatThrownBy(() -> Kubelet.pod(spec).container("b"))
        .hasMessageContaining("there are [a]");
    assertThatThrownBy(() -> Kubelet.pod(spec).initContainer("a"))
        .hasMessageContaining("no initContainers");
    assertThatThrownBy(() -> Kubelet.pod(JSON.createObjectNode()))
        .hasMessageContaining("not a PodSpec");
  }

  @Property
  void aLiteralArrivesUnchangedWhateverIsDefined(
      @ForAll("texts") String text, @ForAll("definitions") Map<String, String> defined) {
    assertThat(Kubelet.expand(KubeletText.literal(text), defined)).isEqualTo(text);
  }

  @Property
  void aLiteralEnvValueReachesTheProcessUnchanged(@ForAll("texts") String text) {
    ObjectNode spec = JSON.createObjectNode();
    ObjectNode container = spec.putArray("containers").addObject().put("name", "app");
    container.putArray("command").add("run");
    container.putArray("env").addObject().put("name", "A").put("value", "a");
    container.withArray("env").addObject().put("name", "V").put("value", KubeletText.literal(text));

    assertThat(Kubelet.pod(spec).container("app").environment()).containsEntry("V", text);
  }

  @Property
  void textWithoutADollarIsNeverChanged(
      @ForAll("texts") String text, @ForAll("definitions") Map<String, String> defined) {
    String plain = text.replace("$", "");
    assertThat(Kubelet.expand(plain, defined)).isEqualTo(plain);
  }

  /** Texts dense in the characters the syntax gives meaning to. */
  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.strings()
        .withChars("$$$(()AB_x\\ {}")
        .withCharRange('\u00e0', '\u00e2')
        .ofMaxLength(24);
  }

  @Provide
  Arbitrary<Map<String, String>> definitions() {
    return Arbitraries.maps(Arbitraries.of("A", "B", "AB", "A_B", "", "$", "A$(B"), texts())
        .ofMaxSize(4);
  }

  private static String jsonList(String csv) {
    String inner = csv.substring(1, csv.length() - 1).strip();
    return inner.isEmpty() ? "[]" : "[\"" + String.join("\", \"", inner.split(",\\s*")) + "\"]";
  }

  static ObjectNode spec(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json);
  }

  static ObjectNode configMap(String name, Map<String, String> data) {
    ObjectNode cm = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    cm.putObject("metadata").put("name", name);
    data.forEach(cm.putObject("data")::put);
    return cm;
  }

  static ObjectNode secret(String name, Map<String, String> data) {
    ObjectNode secret = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Secret");
    secret.putObject("metadata").put("name", name);
    ObjectNode encoded = secret.putObject("data");
    data.forEach(
        (k, v) ->
            encoded.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return secret;
  }
}
