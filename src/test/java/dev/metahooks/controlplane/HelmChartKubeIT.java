package dev.metahooks.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart's life on a real API server, with Helm itself: installed with every controller, upgraded to fewer
 * controllers, uninstalled. The chart's CRDs hold users' data (every PostgresCluster is an object of one), so neither
 * the narrowing upgrade nor the uninstall may delete a CRD, nor the objects of it.
 *
 * <p>A control plane of its own: a release cannot take over CRDs that other tests applied without Helm.
 */
class HelmChartKubeIT {
  private static final Path CHART = Resources.projectDir().resolve("manifests/helm/metahooks");
  private static final String CLUSTER =
      """
      apiVersion: metahooks.dev/v1alpha1
      kind: PostgresCluster
      metadata:
        name: orders
        namespace: shop
      spec:
        instances: 1
      """;
  static ControlPlane plane;

  @BeforeAll
  static void cluster() {
    plane = ControlPlane.startNew();
    Path metacontrollerCrds =
        Resources.projectDir().resolve("controlplane/metacontroller-crds.yaml");
    plane.kubectl("", "apply", "--server-side", "-f", metacontrollerCrds.toString()).ok();
  }

  @AfterAll
  static void stop() {
    if (plane != null) {
      plane.close();
    }
  }

  @Test
  void installUpgradeToFewerControllersAndUninstallKeepEveryCrdAndItsObjects() {
    plane
        .helm(
            "install",
            "metahooks",
            CHART.toString(),
            "--namespace",
            "metahooks",
            "--create-namespace")
        .ok();
    plane.kubectl("", "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s").ok();
    int installed = crds();
    assertThat(installed).as("CRDs the chart installs").isGreaterThan(10);
    plane.kubectl("", "create", "namespace", "shop").ok();
    plane.kubectl(CLUSTER, "apply", "--server-side", "-f", "-").ok();

    plane
        .helm(
            "upgrade",
            "metahooks",
            CHART.toString(),
            "--namespace",
            "metahooks",
            "--set",
            "controllers={hello-world}")
        .ok();
    assertThat(plane.kubectl("", "get", "compositecontrollers", "-o", "name").ok().lines())
        .as("the controllers after narrowing")
        .containsExactly("compositecontroller.metacontroller.k8s.io/hello-controller");
    assertThat(crds()).as("CRDs after the narrowing upgrade").isEqualTo(installed);
    assertThat(
            plane
                .kubectl("", "-n", "shop", "get", "postgrescluster", "orders", "-o", "name")
                .exitCode())
        .isZero();

    plane.helm("uninstall", "metahooks", "--namespace", "metahooks").ok();
    assertThat(crds()).as("CRDs after uninstall").isEqualTo(installed);
    assertThat(
            plane
                .kubectl("", "-n", "shop", "get", "postgrescluster", "orders", "-o", "name")
                .ok()
                .strip())
        .isEqualTo("postgrescluster.metahooks.dev/orders");
  }

  /** The CRDs of the project's groups now stored. */
  private static int crds() {
    return (int)
        plane
            .kubectl("", "get", "crd", "-o", "name")
            .ok()
            .lines()
            .filter(name -> !name.contains("metacontroller.k8s.io"))
            .count();
  }
}
