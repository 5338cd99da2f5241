package dev.metahooks.controllers.updatestrategy;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link UpdateStrategyScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class UpdateStrategyKubeIT extends UpdateStrategyScenarioTest {}
