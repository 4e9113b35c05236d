<?php

declare(strict_types=1);

namespace App\Http;

use InvalidArgumentException;

/**
 * Matches request paths against registered routes.
 */
final class Router
{
    /** @var array<string, callable> */
    private array $routes = [];

    public function add(string $method, string $pattern, callable $handler): void
    {
        if ($pattern === '' || $pattern[0] !== '/') {
            throw new InvalidArgumentException("pattern must start with a slash: $pattern");
        }
        $this->routes[strtoupper($method) . ' ' . $pattern] = $handler;
    }

    /**
     * Find the handler of a request, with the path parameters.
     */
    public function match(string $method, string $path): ?array
    {
        foreach ($this->routes as $key => $handler) {
            [$m, $pattern] = explode(' ', $key, 2);
            if ($m !== strtoupper($method)) {
                continue;
            }
            $regex = '#^' . preg_replace('#\{(\w+)\}#', '(?P<$1>[^/]+)', $pattern) . '$#';
            if (preg_match($regex, $path, $found)) {
                return [$handler, array_filter($found, 'is_string', ARRAY_FILTER_USE_KEY)];
            }
        }
        return null;
    }
}

function route_count(Router $router): int
{
    return 0;
}
