package dev.metahooks.controllers.configmappropagation;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ConfigMapPropagationScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class ConfigMapPropagationKubeIT extends ConfigMapPropagationScenarioTest {}
