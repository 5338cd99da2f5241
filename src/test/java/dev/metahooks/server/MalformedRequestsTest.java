package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.TestServer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests Metacontroller never sends, each one edit away from a golden fixture, over a real port: a 200 to any
 * of them would have deleted or regenerated what a user has (a password, a volume, a running database), so each
 * gets a 422 naming the field. The edited bodies are kept in {@code regressions/}, which RegressionsTest replays.
 */
class MalformedRequestsTest {

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "postgrescluster/sync-422-null-secret-group",
            "postgrescluster/sync/03-dev-ready",
            "children['Secret.v1']"),
        Arguments.of(
            "postgrescluster/sync-422-secret-without-namespace",
            "postgrescluster/sync/03-dev-ready",
            "children['Secret.v1']['pg-dev-superuser'].metadata.namespace"),
        Arguments.of(
            "postgrescluster/sync-422-v1-related-pod-in-another-namespace",
            "postgrescluster/sync/03-dev-ready",
            "related['Pod.v1']['other/pg-dev-0'].metadata.namespace"),
        Arguments.of(
            "postgrescluster/sync-422-paused-statefulset-without-namespace",
            "postgrescluster/sync/20-paused-freezes-children",
            "children['StatefulSet.apps/v1']['shop/orders'].metadata.namespace"),
        Arguments.of(
            "postgrescluster/finalize-422-parent-not-being-deleted",
            "postgrescluster/finalize/01-unprotected-deletes-children",
            "parent.metadata.deletionTimestamp"),
        Arguments.of(
            "catset/sync-422-replicas-missing",
            "catset/sync/04-all-ready-steady",
            "parent.spec.replicas"),
        Arguments.of(
            "catset/sync-422-null-claim-group",
            "catset/sync/04-all-ready-steady",
            "children['PersistentVolumeClaim.v1']"),
        Arguments.of(
            "service-per-pod/sync-422-service-in-another-namespace",
            "service-per-pod/sync/02-v1-all-services-present",
            "attachments['Service.v1']['other/nginx-0'].metadata.namespace"),
        Arguments.of(
            "service-per-pod/finalize-422-still-selected-not-being-deleted",
            "service-per-pod/finalize/03-v2-deleted-services-left",
            "object.metadata.deletionTimestamp"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void getsA422NamingTheFieldWhereTheFixtureItCameFromGetsA200(
      String regression, String fixture, String field) {
    String controller = regression.substring(0, regression.indexOf('/'));
    String hook =
        regression.substring(
            regression.indexOf('/') + 1, regression.indexOf('-', regression.indexOf('/')));
    String path = "/" + controller + "/" + hook;

    TestServer.Reply original =
        TestServer.post(
            path, Resources.bytes(Resources.path("fixtures/" + fixture + ".request.json")));
    assertThat(original.status()).as(original.body()).isEqualTo(200);

    TestServer.Reply reply =
        TestServer.post(
            path, Resources.bytes(Resources.path("regressions/" + regression + ".request.json")));
    assertThat(reply.status()).as(reply.body()).isEqualTo(422);
    assertThat(reply.json().path("error").asText()).isEqualTo("invalid_request");
    assertThat(reply.json().path("field").asText()).isEqualTo(field);
  }
}
