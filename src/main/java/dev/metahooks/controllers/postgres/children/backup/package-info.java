/**
 * <b>Internal</b>: backups and restores: the base backup Jobs and their RBAC, the logical backup CronJob and Jobs, the
 * logical restore Job.
 */
package dev.metahooks.controllers.postgres.children.backup;
