package dev.metahooks.controllers.bluegreen;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link BlueGreenScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class BlueGreenKubeIT extends BlueGreenScenarioTest {}
