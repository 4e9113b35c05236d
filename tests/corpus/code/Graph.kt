package example.graph

import java.util.ArrayDeque

/** A directed graph with string vertices. */
class Graph {
    private val edges = mutableMapOf<String, MutableSet<String>>()

    fun addEdge(from: String, to: String) {
        edges.getOrPut(from) { mutableSetOf() }.add(to)
        edges.getOrPut(to) { mutableSetOf() }
    }

    /** Vertices reachable from [start], breadth first. */
    fun reachable(start: String): List<String> {
        val seen = linkedSetOf(start)
        val queue = ArrayDeque(listOf(start))
        while (queue.isNotEmpty()) {
            val v = queue.removeFirst()
            for (w in edges[v].orEmpty()) {
                if (seen.add(w)) {
                    queue.addLast(w)
                }
            }
        }
        return seen.toList()
    }

    companion object {
        fun of(vararg pairs: Pair<String, String>): Graph {
            val g = Graph()
            pairs.forEach { (a, b) -> g.addEdge(a, b) }
            return g
        }
    }
}

data class Edge(val from: String, val to: String)

fun main() {
    val g = Graph.of("a" to "b", "b" to "c")
    println(g.reachable("a"))
}
