package dev.metahooks.controllers.serviceperpod;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ServicePerPodScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class ServicePerPodKubeIT extends ServicePerPodScenarioTest {}
