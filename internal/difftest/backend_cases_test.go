package difftest

// localBackendRecord is the record tofu init writes for `backend "local"
// {}`.
const localBackendRecord = `{
    "version": 3,
    "backend": {
        "type": "local",
        "config": {
            "path": null,
            "workspace_dir": null
        },
        "hash": 666019178
    }
}
`

// backendCases are init's backend section: a local backend recorded,
// unchanged, changed, removed, with and without -reconfigure and
// -migrate-state (nothing to copy), -backend=false, and the errors of an
// unknown backend type and an unreadable record. (The http backend needs
// a state server for tofu, which reads its state at init: the reference
// script backend_plan covers it.)
func backendCases() []testCase {
	const data = "resource \"terraform_data\" \"a\" {}\n"
	local := "terraform {\n  backend \"local\" {}\n}\n" + data
	otherPath := "terraform {\n  backend \"local\" {\n    path = \"b.tfstate\"\n  }\n}\n" + data
	return []testCase{
		{name: "backend/local-first", files: map[string]string{"main.tf": local}, steps: []step{
			{"init", "-no-color"}, {"init", "-no-color"}, {"init", "-json"}, {"init", "-no-color", "-backend=false"}, {"init", "-no-color", "-reconfigure"},
		}},
		{name: "backend/local-first-json", files: map[string]string{"main.tf": local}, steps: []step{
			{"init", "-json"}, {"init"},
		}},
		{name: "backend/local-changed", files: map[string]string{"main.tf": otherPath, ".terraform/terraform.tfstate": localBackendRecord}, steps: []step{
			{"init", "-no-color"}, {"init", "-json"}, {"init", "-no-color", "-backend=false"}, {"init", "-no-color", "-reconfigure"}, {"init", "-no-color"},
		}},
		{name: "backend/local-changed-migrate", files: map[string]string{"main.tf": otherPath, ".terraform/terraform.tfstate": localBackendRecord}, steps: []step{
			{"init", "-no-color", "-migrate-state"}, {"init", "-no-color"},
		}},
		{name: "backend/local-changed-migrate-json", files: map[string]string{"main.tf": otherPath, ".terraform/terraform.tfstate": localBackendRecord}, steps: []step{
			{"init", "-json", "-force-copy"},
		}},
		{name: "backend/local-removed", files: map[string]string{"main.tf": data, ".terraform/terraform.tfstate": localBackendRecord}, steps: []step{
			{"init", "-no-color"}, {"init", "-no-color", "-reconfigure"}, {"init", "-no-color", "-migrate-state"}, {"init", "-no-color"},
		}},
		{name: "backend/local-removed-json", files: map[string]string{"main.tf": data, ".terraform/terraform.tfstate": localBackendRecord}, steps: []step{
			{"init", "-json", "-migrate-state"},
		}},
		{name: "backend/local-over-state", files: map[string]string{"main.tf": local, "terraform.tfstate": `{"version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "x", "outputs": {"o": {"value": 1, "type": "number"}}, "resources": []}` + "\n"}, steps: []step{
			{"init", "-no-color"}, {"init", "-no-color"},
		}},
		{name: "backend/workspace-selected", files: map[string]string{"main.tf": local, ".terraform/environment": "gone"}, steps: []step{
			{"init", "-no-color"},
		}},
		{name: "backend/unknown-type", files: map[string]string{"main.tf": "terraform {\n  backend \"nope\" {}\n}\n"}, steps: []step{
			{"init", "-no-color"}, {"init", "-json"}, {"init", "-no-color", "-backend=false"},
		}},
		{name: "backend/cloud-type", files: map[string]string{"main.tf": "terraform {\n  backend \"cloud\" {}\n}\n"}, steps: []step{
			{"init", "-no-color"},
		}},
		{name: "backend/record-unreadable", files: map[string]string{"main.tf": local, ".terraform/terraform.tfstate": "{"}, steps: []step{
			{"init", "-no-color"}, {"init", "-no-color", "-backend=false"},
		}},
		{name: "backend/record-unknown-type", files: map[string]string{"main.tf": data, ".terraform/terraform.tfstate": "{\"version\": 3, \"backend\": {\"type\": \"nope\", \"config\": {}, \"hash\": 1}}\n"}, steps: []step{
			{"init", "-no-color", "-backend=false"},
		}},
	}
}
