#!/usr/bin/env python3
# A stand-in for Spilo's postgres-appliance/major_upgrade/inplace_upgrade.py (zalando/spilo 7cb50bd) that keeps its
# contract with its caller, without Patroni or a second PostgreSQL version:
# - arguments: the member count only (main(), lines 758-774); anything else returns 2;
# - the version it upgrades to: PGVERSION (get_desired_version, lines 111-124); the version it runs: the data
#   directory's PG_VERSION (pg_upgrade.py get_cluster_version);
# - not newer: "Upgrade is not required", exit 0 (do_upgrade, lines 487-490);
# - a member count other than the cluster's: "the number of replicas does not match", exit 1 (sanity_checks,
#   lines 210-212);
# - a failure before the switch of the data directory (pg_upgrade --check, lines 511-512; pg_upgrade itself,
#   lines 557-558) leaves the old data directory in place and removes the new one (post_cleanup, lines 648-656):
#   exit 1;
# - a failure after the switch (rsync to a replica, lines 576-588) leaves the primary on the new version: exit 1;
# - success: the new data directory in place, exit 0.
# Log lines go to stderr in Spilo's format (line 778). STANDIN_MEMBERS: the cluster's member count;
# STANDIN_FAIL: check, upgrade or rsync.
import logging
import os
import sys

logging.basicConfig(format='%(asctime)s inplace_upgrade %(levelname)s: %(message)s', level='INFO')
log = logging.getLogger(__name__)


def main():
    if len(sys.argv) != 2:
        return 2
    pgdata = os.environ['PGDATA']
    version_file = os.path.join(pgdata, 'PG_VERSION')
    with open(version_file) as f:
        cluster_version = f.read().strip()
    desired_version = os.environ['PGVERSION']
    if float(cluster_version) >= float(desired_version):
        log.info('Current version=%s, desired version=%s. Upgrade is not required', cluster_version, desired_version)
        return 0
    members = int(os.environ.get('STANDIN_MEMBERS', sys.argv[1]))
    if members != int(sys.argv[1]):
        log.error('Upgrade can not be triggered because the number of replicas does not match (%s != %s)',
                  members, sys.argv[1])
        return 1
    fail = os.environ.get('STANDIN_FAIL', '')
    log.info('Cluster %s is ready to be upgraded', os.environ.get('SCOPE', 'demo'))
    new_data = pgdata + '_new'
    os.makedirs(new_data, exist_ok=True)
    try:
        if fail == 'check':
            log.error('pg_upgrade --check failed, more details in the %s_upgrade', pgdata)
            return 1
        if fail == 'upgrade':
            log.error('Failed to upgrade cluster from %s to %s', cluster_version, desired_version)
            return 1
        with open(version_file, 'w') as f:
            f.write(desired_version + '\n')
        if fail == 'rsync':
            log.error('rsync failed: %r', RuntimeError('connection refused'))
            return 1
        log.info('Total upgrade time (with analyze): 1.0')
        return 0
    finally:
        os.rmdir(new_data)


if __name__ == '__main__':
    sys.exit(main())
