package dev.metahooks.controllers.postgres;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link BackupEmulatorScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class BackupEmulatorKubeIT extends BackupEmulatorScenarioTest {}
