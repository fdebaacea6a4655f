"""docker-compose.yml keeps the essentials that no Docker-less run would catch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_neo4j_is_the_5_26_community_image(compose):
    assert compose["services"]["neo4j"]["image"] == "neo4j:5.26-community"


def test_password_comes_from_the_environment_and_is_required(compose):
    auth = compose["services"]["neo4j"]["environment"]["NEO4J_AUTH"]
    assert re.fullmatch(r"neo4j/\$\{NEO4J_PASSWORD:\?[^}]+\}", auth), auth
    assert compose["services"]["app"]["environment"]["NEO4J_PASSWORD"] == "${NEO4J_PASSWORD}"


def test_no_literal_password(compose):
    for service in compose["services"].values():
        for key, value in service.get("environment", {}).items():
            if "PASSWORD" in key or key == "NEO4J_AUTH":
                assert "${NEO4J_PASSWORD" in str(value), (key, value)
    healthcheck = " ".join(compose["services"]["neo4j"]["healthcheck"]["test"])
    assert not re.search(r"-p\s+['\"]?[^$'\"\s]", healthcheck), healthcheck


def test_neo4j_has_a_healthcheck_and_ports(compose):
    neo4j = compose["services"]["neo4j"]
    assert neo4j["healthcheck"]["test"]
    assert {"7474:7474", "7687:7687"} <= set(neo4j["ports"])


def test_data_and_logs_are_named_volumes(compose):
    mounts = dict(volume.split(":", 1) for volume in compose["services"]["neo4j"]["volumes"])
    assert set(mounts.values()) == {"/data", "/logs"}
    assert set(mounts) <= set(compose["volumes"])


def test_app_waits_for_a_healthy_neo4j_and_reaches_it_by_service_name(compose):
    app = compose["services"]["app"]
    assert app["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert app["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert "8501:8501" in app["ports"]
    assert app["build"] == "."
    assert (ROOT / "Dockerfile").exists()


def test_the_image_starts_the_ui_like_everywhere_else():
    """`gamegraph ui` with no flags: Streamlit's variables (which `docker run -e` can override)
    make it listen on every interface, headless; nothing prompts."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r'^CMD \["gamegraph", "ui"\]$', dockerfile, re.M)
    assert "STREAMLIT_SERVER_ADDRESS=0.0.0.0" in dockerfile and "STREAMLIT_SERVER_HEADLESS=true" in dockerfile
    assert "command" not in yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["app"]


def test_neo4j_is_hardened_like_the_embedded_launcher(compose):
    env = compose["services"]["neo4j"]["environment"]
    assert env["NEO4J_dbms_security_allow__csv__import__from__file__urls"] == "false"
    assert set(env["NEO4J_internal_dbms_cypher__ip__blocklist"].split(",")) == {"0.0.0.0/0", "::/0"}
    launcher = (ROOT / "loaders/launcher/src/main/java/gamegraph/Neo4jLauncher.java").read_text()
    allowlist = re.search(r"PROCEDURE_ALLOWLIST =\s*List\.of\(([^)]*)\)", launcher)[1]
    assert env["NEO4J_dbms_security_procedures_allowlist"].split(",") == re.findall(r'"([^"]+)"', allowlist)
