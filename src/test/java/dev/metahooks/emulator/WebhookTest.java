package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.api.HookVersion;
import dev.metahooks.testing.kube.Yaml;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Reading hooks from manifests and decoding answers the way Metacontroller does. */
class WebhookTest {
  private static final URI BASE = URI.create("http://localhost:9999");

  @Test
  void theHostIsReplacedAndThePathKept() {
    Webhook byUrl =
        Webhook.read(
            Yaml.object(
                """
        sync: {version: v2, webhook: {url: "http://metahooks.metahooks/catset/sync", timeout: 1m30s}}"""),
            "sync",
            BASE);
    assertThat(byUrl.url()).isEqualTo(URI.create("http://localhost:9999/catset/sync"));
    assertThat(byUrl.version()).isEqualTo(HookVersion.V2);
    assertThat(byUrl.strict()).as("v2 decodes strictly by default").isTrue();
    assertThat(byUrl.timeout()).isEqualTo(Duration.ofSeconds(90));

    Webhook byService =
        Webhook.read(
            Yaml.object(
                """
        finalize:
          webhook: {service: {name: metahooks, namespace: metahooks}, path: /catset/finalize,
                    responseUnMarshallMode: strict}"""),
            "finalize",
            BASE);
    assertThat(byService.url()).isEqualTo(URI.create("http://localhost:9999/catset/finalize"));
    assertThat(byService.version()).isEqualTo(HookVersion.V1);
    assertThat(byService.strict()).isTrue();
    assertThat(byService.timeout()).isEqualTo(Duration.ofSeconds(10));

    assertThat(Webhook.read(Yaml.object("sync: {}"), "sync", BASE))
        .as("no webhook: disabled")
        .isNull();
    assertThat(Webhook.duration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Webhook.duration("0s")).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void unknownFieldsFailOnlyInStrictModeTypeErrorsAlways() {
    Webhook loose = new Webhook("sync", HookVersion.V1, BASE, Duration.ofSeconds(1), false);
    Webhook strict = new Webhook("sync", HookVersion.V2, BASE, Duration.ofSeconds(1), true);
    String extra = "{\"children\": [], \"labels\": {}}";

    assertThat(loose.decode(extra, Webhook.Answer.COMPOSITE).has("children")).isTrue();
    assertThatThrownBy(() -> strict.decode(extra, Webhook.Answer.COMPOSITE))
        .hasMessageContaining("unknown field \"labels\"");
    assertThatThrownBy(
            () ->
                loose.decode(
                    "{\"Children\": [], \"resyncAfterSeconds\": \"5\"}", Webhook.Answer.COMPOSITE))
        .hasMessageContaining("resyncAfterSeconds");
    assertThatThrownBy(() -> loose.decode("{\"children\": {}}", Webhook.Answer.COMPOSITE))
        .hasMessageContaining("children");
    assertThatThrownBy(
            () ->
                loose.decode(
                    "{\"children\": [{\"apiVersion\": \"v1\", \"metadata\": {}}]}",
                    Webhook.Answer.COMPOSITE))
        .hasMessageContaining("Object 'Kind' is missing");
    assertThatThrownBy(() -> loose.decode("{\"labels\": {\"a\": 1}}", Webhook.Answer.DECORATOR))
        .hasMessageContaining("labels");
    assertThatThrownBy(
            () ->
                strict.decode(
                    "{\"relatedResources\": [{\"apiVersion\": \"v1\", \"resource\": \"pods\","
                        + " \"labelSelector\": {\"matchlabels\": {}}}]}",
                    Webhook.Answer.CUSTOMIZE))
        .hasMessageContaining("matchlabels");
    assertThat(loose.decode("null", Webhook.Answer.COMPOSITE).isEmpty()).isTrue();
  }
}
