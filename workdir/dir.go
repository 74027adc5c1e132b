package workdir

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// manifestPath is the module manifest, relative to the working directory.
func (r *Run) manifestPath() string {
	return filepath.Join(r.opts.ModulesDir(), manifest.FileName)
}

// relErr is err with the path of an *fs.PathError under the working
// directory made relative to it again, as the error reads from inside it.
func (o *Options) relErr(err error) error {
	var pe *fs.PathError
	if o.Dir == "" || !errors.As(err, &pe) {
		return err
	}
	if rest, ok := strings.CutPrefix(pe.Path, filepath.Clean(o.Dir)+string(filepath.Separator)); ok {
		return &fs.PathError{Op: pe.Op, Path: rest, Err: pe.Err}
	}
	return err
}
