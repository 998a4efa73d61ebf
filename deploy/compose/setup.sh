#!/bin/sh
# Run once before `docker compose up`: a private CA and a server certificate for docker-compose's
# NATS (host name "nats") in deploy/compose/tls/, and a password per app's NATS user in .env
# (docker compose reads it; both are git-ignored). The apps trust tls/ca.pem (NATS_CA_FILE).
# nats-server reads a variable as a config value: a password must start with a letter.
set -eu
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/deploy/compose/tls"
mkdir -p "$dir"
cd "$dir"
[ -f ca.pem ] || openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=signup-platform NATS CA" -keyout ca-key.pem -out ca.pem
if [ ! -f server.pem ]; then
  openssl req -newkey rsa:2048 -nodes -subj "/CN=nats" -keyout server-key.pem -out server.csr
  printf 'subjectAltName=DNS:nats,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 825 -extfile server.ext -out server.pem
  rm -f server.csr server.ext
fi
# NATS reads these as root, the apps (uid 1000) only ca.pem.
chmod 644 ca.pem server.pem server-key.pem
for app in API_GATEWAY AUTH_SERVER MCP_SERVER SIGNUPS_SERVICE WEBHOOKS_DISPATCHER REMINDERS_SERVICE; do
  grep -qs "^${app}_NATS_PASSWORD=" "$root/.env" || echo "${app}_NATS_PASSWORD=nats_$(openssl rand -hex 24)" >> "$root/.env"
done
