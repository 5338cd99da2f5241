/**
 * <b>Internal</b>: backups and restores: Spilo's WAL archive settings, the base backup Jobs and their RBAC, the
 * logical backup CronJob and Jobs, the logical restore Job, the store checks.
 */
package dev.metahooks.controllers.postgres.children.backup;
