package config

// attributeMode tells how OpenTofu reads the argument a, found in the body
// of nested blocks whose types are path (outermost first). Only values from
// JSON files depend on it: a native expression means the same in any mode.
func attributeMode(path []string, a *Attribute) exprMode {
	if len(path) == 2 && path[0] == "terraform" && path[1] == "required_providers" {
		return modeProviderRequirement
	}
	if a.Keyword || keywordArgument(path, a.Name) {
		return modeKeyword
	}
	if literalArgument(path, a.Name) {
		return modeLiteral
	}
	return modeTemplate
}

// keywordArgument lists the arguments OpenTofu reads as keywords, type
// constraints or references (static analysis of the expression), so that
// their JSON strings hold native expressions. The loader's Keyword flag
// says the same; this table keeps the renderer right without it.
func keywordArgument(path []string, name string) bool {
	if len(path) == 0 {
		return false
	}
	switch top := path[0]; {
	case len(path) == 1:
		return topLevelKeyword(top, name)
	case len(path) == 2 && path[1] == "lifecycle" && isResourceKind(top):
		return name == "ignore_changes" || name == "replace_triggered_by"
	}
	return false
}

func topLevelKeyword(blockType, name string) bool {
	switch blockType {
	case "resource", "data", "ephemeral":
		return name == "depends_on" || name == "provider"
	case "module":
		return name == "depends_on" || name == "providers"
	case "output":
		return name == "depends_on"
	case "variable":
		return name == "type"
	case "moved":
		return name == "from" || name == "to"
	case "removed":
		return name == "from"
	case "import":
		return name == "to" || name == "provider"
	case "terraform":
		return name == "experiments"
	}
	return false
}

// literalArgument lists arguments OpenTofu evaluates without an evaluation
// context: their JSON strings are not templates.
func literalArgument(path []string, name string) bool {
	if len(path) != 1 {
		return false
	}
	switch path[0] {
	case "variable":
		return name != "type"
	case "output":
		switch name {
		case "description", "sensitive", "ephemeral", "deprecated":
			return true
		}
	case "terraform":
		return name == "required_version"
	case "provider":
		return name == "alias" || name == "version"
	}
	return false
}

func isResourceKind(blockType string) bool {
	return blockType == "resource" || blockType == "data" || blockType == "ephemeral"
}
