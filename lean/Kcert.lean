import Kcert.Compat
import Kcert.ExpField
import Kcert.Term
import Kcert.Rules.Congruence
import Kcert.Rules.Ring
import Kcert.Rules.Field
import Kcert.Check
import Kcert.Examples
