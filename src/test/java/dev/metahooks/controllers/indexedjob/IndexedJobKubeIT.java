package dev.metahooks.controllers.indexedjob;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link IndexedJobScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class IndexedJobKubeIT extends IndexedJobScenarioTest {}
