# The S3 stand-in of the compose stack (docs/releases.md, "Object storage"): s3rver, the version the
# repo's tests use, objects in the volume at /data. Only for a stack on one machine: production
# points the release tool and the remotes' origins at a real object store (S3, R2, GCS, MinIO).
#   docker build -f deploy/s3.Dockerfile .
FROM node:24-bookworm-slim
WORKDIR /srv/s3
# An optional extra CA bundle as a build secret, and npm's cache: see static-app.Dockerfile.
RUN --mount=type=secret,id=npm_ca --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    echo '{"type":"module","private":true}' > package.json && \
    npm install --no-audit --no-fund --no-package-lock s3rver@3.7.1
COPY deploy/s3/s3-server.mjs ./
ENV SG_S3_PORT=4568 SG_S3_DIR=/data SG_S3_BUCKET=sg-builds
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 4568
CMD ["node", "s3-server.mjs"]
