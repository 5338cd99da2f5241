package dev.metahooks.controllers.globalconfigmap;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GlobalConfigMapScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class GlobalConfigMapKubeIT extends GlobalConfigMapScenarioTest {}
