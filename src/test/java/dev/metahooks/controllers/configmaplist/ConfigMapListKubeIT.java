package dev.metahooks.controllers.configmaplist;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@link ConfigMapListScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
@Execution(ExecutionMode.CONCURRENT)
class ConfigMapListKubeIT extends ConfigMapListScenarioTest {}
