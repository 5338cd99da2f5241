package dev.metahooks.controllers.podnamelabel;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link PodNameLabelScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class PodNameLabelKubeIT extends PodNameLabelScenarioTest {}
