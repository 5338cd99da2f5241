package dev.metahooks.controllers.catset;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link CatSetScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class CatSetKubeIT extends CatSetScenarioTest {}
