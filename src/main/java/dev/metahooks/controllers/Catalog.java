package dev.metahooks.controllers;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.bluegreen.BlueGreenController;
import dev.metahooks.controllers.catset.CatSetController;
import dev.metahooks.controllers.clusteredparent.ClusteredParentController;
import dev.metahooks.controllers.configmaplist.ConfigMapListController;
import dev.metahooks.controllers.configmappropagation.ConfigMapPropagationController;
import dev.metahooks.controllers.crdroles.CrdRolesController;
import dev.metahooks.controllers.daemonjob.DaemonJobController;
import dev.metahooks.controllers.globalconfigmap.GlobalConfigMapController;
import dev.metahooks.controllers.helloworld.HelloWorldController;
import dev.metahooks.controllers.indexedjob.IndexedJobController;
import dev.metahooks.controllers.namespacelist.NamespaceListController;
import dev.metahooks.controllers.podnamelabel.PodNameLabelController;
import dev.metahooks.controllers.postgres.PostgresClusterController;
import dev.metahooks.controllers.secretpropagation.SecretPropagationController;
import dev.metahooks.controllers.serviceperpod.ServicePerPodController;
import dev.metahooks.controllers.updatestrategy.UpdateStrategyController;
import java.util.List;

/** Every controller the server hosts, each under its fixed URL name, sorted by that name. */
public final class Catalog {
  private Catalog() {}

  /** The controllers as the server runs them: wall clock, secure randomness. */
  public static List<Controller> controllers() {
    return controllers(Sources.system());
  }

  /** The controllers with the given clock and randomness (tests pin them). */
  public static List<Controller> controllers(Sources sources) {
    return List.of(
        BlueGreenController.controller(),
        CatSetController.controller(),
        ClusteredParentController.controller(),
        ConfigMapListController.controller(),
        ConfigMapPropagationController.controller(),
        CrdRolesController.controller(),
        DaemonJobController.controller(),
        GlobalConfigMapController.controller(),
        HelloWorldController.controller(),
        IndexedJobController.controller(),
        NamespaceListController.controller(),
        PodNameLabelController.controller(),
        PostgresClusterController.controller(sources),
        SecretPropagationController.controller(),
        ServicePerPodController.controller(),
        UpdateStrategyController.controller());
  }
}
