# The reference sign-up API, built from the repo root:
#   docker build -f deploy/api.Dockerfile .
FROM node:20-bookworm-slim
WORKDIR /repo
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
COPY shared/package.json shared/
COPY host/package.json host/
COPY remote-intro/package.json remote-intro/
COPY remote-signup/package.json remote-signup/
COPY remote-thankyou/package.json remote-thankyou/
COPY api/package.json api/
RUN npm install --no-audit --no-fund --omit=dev -w api -w shared
COPY tsconfig.json ./
COPY shared shared
COPY api api
ENV PORT=3004 HOST=0.0.0.0 API_DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
WORKDIR /repo/api
EXPOSE 3004
CMD ["node", "--import", "tsx", "src/main.ts"]
