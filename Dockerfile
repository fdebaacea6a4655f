# The gamegraph UI; docker-compose.yml pairs it with a Neo4j 5.26 container.
FROM python:3.11-slim

# Graphviz's `dot` renders the game-graph pictures.
RUN apt-get update \
    && apt-get install --no-install-recommends -y graphviz \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Only what the package is built from: the local .gamegraph/ state (Neo4j data) stays out.
COPY pyproject.toml README.md ./
COPY explorer ./explorer
COPY loaders ./loaders
COPY queries ./queries
RUN pip install --no-cache-dir .

RUN useradd --create-home gamegraph
USER gamegraph
ENV GAMEGRAPH_HOME=/home/gamegraph/.gamegraph
# The UI starts as everywhere else: `gamegraph ui` with no flags, Streamlit's own
# settings applying. A container must listen on every interface; STREAMLIT_*
# variables given to `docker run -e` (port, address, ...) override these.
ENV STREAMLIT_SERVER_ADDRESS=0.0.0.0 STREAMLIT_SERVER_HEADLESS=true
# Compile the numba kernels once into the image (~/.cache/numba), not at each container's first solve.
RUN GAMEGRAPH_KERNELS_FROM=0 GAMEGRAPH_PROGRESS=0 python -c "from explorer.solved import build; build('chopsticks')"
EXPOSE 8501
CMD ["gamegraph", "ui"]
