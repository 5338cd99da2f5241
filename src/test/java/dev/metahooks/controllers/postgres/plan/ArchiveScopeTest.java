package dev.metahooks.controllers.postgres.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.kube.FieldProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a cluster may archive and read archives from: its namespace, and the roots the hook server allows. */
class ArchiveScopeTest {
  static ObjectNode parent(String prefix, String clonePrefix) {
    ObjectNode parent =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    parent.putObject("metadata").put("name", "billing").put("namespace", "shop").put("uid", "u-1");
    ObjectNode spec = parent.putObject("spec");
    ObjectNode s3 =
        spec.putObject("backup")
            .putObject("s3")
            .put("bucket", "backups")
            .put("region", "eu-west-1");
    if (prefix != null) {
      s3.put("prefix", prefix);
    }
    if (clonePrefix != null) {
      spec.putObject("bootstrap")
          .putObject("clone")
          .put("cluster", "ledger")
          .putObject("s3")
          .put("bucket", "archive")
          .put("region", "eu-west-1")
          .put("prefix", clonePrefix);
    }
    return parent;
  }

  static List<String> fields(ArchiveScope scope, ObjectNode parent) {
    return scope.check(SpecReader.read(parent).spec(), parent, "shop", "billing").stream()
        .map(FieldProblem::field)
        .toList();
  }

  @Test
  void theDefaultAndPrefixesInsideTheNamespaceAreAllowed() {
    assertThat(fields(ArchiveScope.NAMESPACE, parent(null, "shop/ledger"))).isEmpty();
    assertThat(fields(ArchiveScope.NAMESPACE, parent("shop/billing/v2", "shop"))).isEmpty();
  }

  @Test
  void theNamespacesRootAndOtherNamespacesAreRefused() {
    assertThat(fields(ArchiveScope.NAMESPACE, parent("shop", null)))
        .containsExactly("spec.backup.s3.prefix");
    assertThat(fields(ArchiveScope.NAMESPACE, parent("hr/billing", "hr/payroll")))
        .containsExactly("spec.backup.s3.prefix", "spec.bootstrap.clone.s3.prefix");
    assertThat(fields(ArchiveScope.NAMESPACE, parent("shopping/x", "shopping"))).hasSize(2);
  }

  @Test
  void theServersRootsAllowSharedArchivesAndNothingElse() {
    ArchiveScope shared = ArchiveScope.parse(" shared/restores , dr ");
    assertThat(shared.roots()).containsExactly("shared/restores", "dr");
    assertThat(fields(shared, parent("dr/billing", "shared/restores/payroll"))).isEmpty();
    assertThat(fields(shared, parent("shared/other", "hr/payroll")))
        .containsExactly("spec.backup.s3.prefix", "spec.bootstrap.clone.s3.prefix");
    assertThat(ArchiveScope.parse("").roots()).isEmpty();
  }

  @Test
  void anUnreadableRootStopsTheServer() {
    for (String bad : List.of("/abs", "a//b", "a/../b", "a b", "s3://bucket/x")) {
      assertThatThrownBy(() -> ArchiveScope.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(ArchiveScope.ENVIRONMENT);
    }
  }
}
