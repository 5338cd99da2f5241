package dev.metahooks.controllers.clusteredparent;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ClusteredParentScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class ClusteredParentKubeIT extends ClusteredParentScenarioTest {}
