"""A region is named by its folder when the folder is the learner's own name for that area
(issue 28: "named by the most central note title or the folder name")."""

from __future__ import annotations

from studyhall.core.contracts.graph import Cluster
from studyhall.core.library.upkeep.cluster_names import folder_label, folder_names


def cluster(cid: str, *nodes: str) -> Cluster:
    return Cluster(id=cid, node_ids=tuple(nodes))


def test_a_cluster_mostly_in_one_folder_is_named_by_it():
    clusters = [cluster("a", "p1", "p2", "p3"), cluster("b", "h1", "h2", "x")]
    folders = {"p1": "Physics", "p2": "Physics", "p3": "Physics",
               "h1": "world-history", "h2": "world-history", "x": "Physics"}
    assert folder_names(clusters, folders) == {"a": "Physics", "b": "World history"}


def test_a_folder_names_only_the_cluster_holding_most_of_it():
    clusters = [cluster("a", "p1", "p2"), cluster("b", "p3", "p4", "p5")]
    folders = {n: "Physics" for n in ("p1", "p2", "p3", "p4", "p5")}
    assert folder_names(clusters, folders) == {"b": "Physics"}  # "a" keeps its central title


def test_a_mixed_cluster_and_folders_that_are_not_subjects_keep_their_central_titles():
    clusters = [cluster("mixed", "a1", "b1", "c1"), cluster("code", "s1", "s2"),
                cluster("dunder", "d1", "d2"), cluster("generic", "g1", "g2"),
                cluster("root", "r1", "r2")]
    folders = {"a1": "Art", "b1": "Biology", "c1": "Chemistry", "s1": "src", "s2": "src",
               "d1": "__init__", "d2": "__init__", "g1": "notes", "g2": "notes"}
    assert folder_names(clusters, folders) == {}  # r1, r2 live at the vault's root


def test_folder_labels_read_as_names():
    assert folder_label("machine-learning") == "Machine learning"
    assert folder_label("deep_learning") == "Deep learning"
    assert folder_label("API") == "API" and folder_label("Editing and formatting") == (
        "Editing and formatting")
