package dev.metahooks.controllers.configmaplist;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ConfigMapListScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class ConfigMapListKubeIT extends ConfigMapListScenarioTest {}
