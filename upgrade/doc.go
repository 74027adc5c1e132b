package upgrade
